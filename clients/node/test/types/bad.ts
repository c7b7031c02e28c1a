// Misuse the types must reject. Each `// @ts-expect-error TSnnnn` names the
// error the next line must give: the test checks that tsc reports exactly
// these (with the directives, tsc also fails when one of them is missing).

import { Client } from 'catalogd';

export async function misuse(client: Client): Promise<void> {
  // A misspelt method.
  // @ts-expect-error TS2345
  await client.request('products/listUpdatd', {});
  // Params of the wrong shape.
  // @ts-expect-error TS2322
  await client.request('quotes/list', { limit: 'five' });
  // A result used as what it is not.
  // @ts-expect-error TS2322
  const count: number = await client.request('quotes/random', {});
  // A misspelt notification, for a handler and for the iterator.
  // @ts-expect-error TS2769
  client.on('products/listUpdatd', () => {});
  // @ts-expect-error TS2769
  client.notifications('products/listUpdatd');
  // @ts-expect-error TS2769
  client.notifications(['quotes/loading', 'products/listUpdatd']);
  // A handler that reads what the notification does not have.
  // @ts-expect-error TS2551
  client.on('quotes/loading', (params) => params.isLoadin);
  // A misspelt client notification.
  // @ts-expect-error TS2345
  client.notify('initialised');
  // Params that are not an object or an array, through the escape hatch too.
  // @ts-expect-error TS2345
  await client.requestUntyped('x/new', 5);
  void count;
}

export async function badOptions(): Promise<void> {
  // An unknown framing.
  // @ts-expect-error TS2322
  await Client.start({ framing: 'xml' });
  // An unknown option.
  // @ts-expect-error TS2345
  await Client.start({ binry: '/usr/bin/catalogd' });
  // An environment value that is not a string (or null/undefined to remove it).
  // @ts-expect-error TS2322
  await Client.start({ env: { CATALOGD_UPSTREAM_TIMEOUT_MS: 2000 } });
  // A trace of the wrong shape.
  // @ts-expect-error TS2322
  await Client.start({ trace: (direction: 'in' | 'out') => void direction });
  // The constructor is private: Client.start does the handshake.
  // @ts-expect-error TS2673
  new Client();
}
