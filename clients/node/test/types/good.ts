// Typical use of the client's types: `tsc --noEmit --strict` must find no error here.

import {
  CatalogdError,
  Client,
  DaemonExitedError,
  NotFound,
  RpcError,
  UsageError,
  VERSION,
  findBinary,
  type DaemonExit,
  type Feed,
  type JsonRpcMessage,
  type Product,
  type Quote,
  type StartOptions,
} from 'catalogd';
import { startClient, type TestContextLike } from 'catalogd/testing';

const version: string = VERSION;

const options: StartOptions = {
  binary: findBinary().binary,
  args: ['--log-level', 'debug'],
  env: { CATALOGD_QUOTES_URL: 'http://127.0.0.1:1', LANG: null, LC_ALL: undefined },
  cwd: '/',
  framing: 'lsp',
  timeout: Infinity,
  handshakeTimeout: 10_000,
  clientInfo: { name: 'my-app', version },
  clientId: '3f2c8a4e-1b6d-4c9a-8e7f-0a1b2c3d4e5f',
  locale: 'ko',
  stderr: (line: string) => void line,
  onError: (error: Error) => void error.message,
  trace: (direction: 'send' | 'receive', message: JsonRpcMessage) => {
    const arrow: '-->' | '<--' = direction === 'send' ? '-->' : '<--';
    void `${arrow} ${message.method ?? message.id} ${JSON.stringify(message)}`;
  },
};

export async function session(): Promise<DaemonExit> {
  const client = await Client.start(options);

  // Typed by method name: params checked, result typed.
  const quote: Quote = await client.request('quotes/random', { tags: ['wisdom'] });
  const page = await client.request('products/list', { limit: 5 }, { timeout: 5000 });
  const names: string[] = page.items.map((product: Product) => product.nameKo);
  const same: Quote = await client.quotesRandom({ author: quote.author }, { signal: new AbortController().signal });

  // The escape hatch for what the types do not know.
  const raw: unknown = await client.requestUntyped('x/newMethod', { any: 'thing' });
  client.notifyUntyped('x/newNotification', [1, 2]);
  client.notify('$/cancelRequest', { id: 7 });

  // Notifications: typed by name; '*' gets all, including unknown ones.
  const stop = client.on('quotes/loading', ({ isLoading }) => {
    const loading: boolean = isLoading;
    void loading;
  });
  const all = client.on('*', (params: unknown, method: string) => void [params, method]);
  stop();
  all[Symbol.dispose]();
  for await (const { method, params } of client.notifications(['products/listUpdated', 'quotes/loading'])) {
    if (method === 'products/listUpdated') void params.reason; // narrowed by method
    else void params.isLoading;
    break;
  }
  for await (const notification of client.notifications()) {
    void notification.method;
    break;
  }

  // Feeds.
  const feed: Feed<Product> = await client.openFeed<Product>('products', { query: { sort: 'name' }, pageSize: 20 });
  feed.on('change', (event) => {
    if (event.kind === 'changes') for (const step of event.changes) void step.op;
    if (event.kind === 'state' && event.error) void event.error.code;
  });
  await feed.loadMore();
  const first: Product | undefined = feed.items[0];
  await feed[Symbol.asyncDispose]();

  // Errors: one root, the replies under RpcError.
  try {
    await client.productsGet({ id: 'nope' });
  } catch (error) {
    if (error instanceof NotFound) void (error.data.resource.length + (error.data.id ?? '').length);
    else if (error instanceof RpcError) void [error.code, error.data, error.method, error.retryable];
    else if (error instanceof DaemonExitedError) void [error.exitCode, error.signal, error.stderrTail];
    else if (error instanceof UsageError) void ((e: TypeError) => e.message)(error);
    else if (error instanceof CatalogdError) void error.message;
    else throw error;
  }

  void [names, same, raw, first];
  const status: DaemonExit = await client.close({ timeout: 1000 });
  const again: { exitCode: number | null; signal: string | null } = await client.close();
  void again;
  await client[Symbol.asyncDispose]();
  const disposable: AsyncDisposable = client;
  void disposable;
  return status;
}

// catalogd/testing with a node:test-like context.
export async function inATest(t: TestContextLike): Promise<void> {
  const client: Client = await startClient(t, { locale: 'en' });
  await client.daemonStatus();
}

// node:test's TestContext, as @types/node declares the members the helper uses.
declare const nodeTestContext: {
  readonly name: string;
  readonly passed: boolean;
  after(fn?: (t: unknown, done: (result?: any) => void) => any, options?: { signal?: AbortSignal; timeout?: number }): void;
  diagnostic(message: string): void;
};
export const fromNodeTest: Promise<Client> = startClient(nodeTestContext);
