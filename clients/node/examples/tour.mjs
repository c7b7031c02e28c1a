#!/usr/bin/env node
// A tour of catalogd's services, section by section.
//
//   node clients/node/examples/tour.mjs   (runs $CATALOGD_BIN, else catalogd on PATH, else the repo's build)
//
// Each section names the methods it needs and is skipped when the daemon's
// rpc.discover does not list them all, so the tour runs against any version:
// sections for services that have not landed yet say so and move on.
// Adding a service = adding one entry to SECTIONS.
//
// The tour uses a fresh temporary data dir (it creates products), unless
// CATALOGD_DATA_DIR is set.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Client, Conflict, NotFound, RpcError } from 'catalogd';
import { daemonBinary } from './daemon.mjs';

/** @typedef {{title: string, needs: string[], run: (client: Client) => Promise<void>}} Section */

/** @type {Section[]} */
const SECTIONS = [
  {
    title: 'daemon',
    needs: ['daemon/status', 'daemon/echo'],
    async run(client) {
      const status = await client.daemonStatus();
      say(`catalogd ${status.version}, data dir ${status.dataDir}`);
      say(`backends: ${Object.entries(status.backends).map(([s, b]) => `${s}=${b}`).join(', ')}`);
      say(`echo: ${JSON.stringify(await client.daemonEcho({ hello: 'world' }))}`);
    },
  },
  {
    title: 'quotes',
    needs: ['quotes/random', 'quotes/list'],
    async run(client) {
      // The refresh button of the quote app is enabled exactly when isLoading is false.
      const dispose = client.on('quotes/loading', ({ isLoading }) =>
        say(isLoading ? '(loading… refresh disabled)' : '(loaded: refresh enabled)'),
      );
      const quote = await client.quotesRandom({ tags: ['wisdom'], maxLength: 120 });
      say(`“${quote.content}” — ${quote.author}`);
      dispose();

      const page = await client.quotesList({ tags: ['technology'], limit: 3 });
      say(`technology, page ${page.page} (next: ${page.nextPage ?? 'none'}):`);
      for (const q of page.items) say(`  · ${q.author}: ${short(q.content, 70)}`);

      try {
        await client.quotesRandom({ author: 'nobody-in-particular' });
      } catch (error) {
        if (!(error instanceof NotFound)) throw error;
        say(`no such author: ${error.message} data=${JSON.stringify(error.data)}`);
      }
    },
  },
  {
    title: 'products',
    needs: ['products/list', 'products/create', 'products/update', 'products/delete', 'suppliers/list'],
    async run(client) {
      const dispose = client.on('products/listUpdated', ({ reason, id }) => say(`(list updated: ${reason} ${id ?? ''})`));
      const { items: suppliers } = await client.suppliersList();
      say(`${suppliers.length} suppliers`);
      const created = await client.productsCreate({
        nameKo: '투어 머그컵',
        nameEn: 'Tour mug',
        price: 12000,
        supplierId: suppliers[0]?.id,
      });
      say(`created ${created.id}: ${created.nameKo} (${created.nameEn}), ₩${created.price}, version ${created.version}`);
      const updated = await client.productsUpdate({ id: created.id, price: 9900, expectedVersion: created.version });
      say(`updated to ₩${updated.price}, version ${updated.version}`);
      try {
        await client.productsUpdate({ id: created.id, price: 1, expectedVersion: created.version });
      } catch (error) {
        if (!(error instanceof Conflict)) throw error;
        say(`a stale edit is refused: ${error.message} data=${JSON.stringify(error.data)}`);
      }
      const page = await client.productsList({ limit: 5, sort: 'newest' });
      say(`${page.totalCount} products; newest: ${page.items.map((p) => p.nameKo).join(', ')}`);
      await client.productsDelete({ id: created.id });
      dispose();
    },
  },
  {
    // An infinitely scrolling photo list: the feed lives in the daemon, the
    // app asks for more until the end, and binds its footer to the states.
    title: 'photos (a feed scrolled to its end)',
    needs: ['feeds/open', 'feeds/loadMore', 'feeds/items', 'feeds/close'],
    async run(client) {
      const states = [];
      const pages = [];
      const offState = client.on('feeds/stateChanged', ({ state, count }) => states.push(`${state} ${count}`));
      const offPage = client.on('feeds/pageLoaded', ({ start, end }) => pages.push(`${start}..<${end}`));
      const { feedId } = await client.feedsOpen({ source: 'photos', pageSize: 30 });
      let added;
      do added = await client.feedsLoadMore({ feedId });
      while (!added.endReached);
      const { items } = await client.feedsItems({ feedId, start: 0, end: 2 });
      await client.feedsClose({ feedId });
      offState();
      offPage();
      say(`feeds/open photos, scrolled to its end: pages ${pages.join(', ')}; ${added.end} photos`);
      say(`feeds/stateChanged: ${states.join(', ')}`);
      for (const photo of items) say(`  · ${photo.id} ${photo.width}×${photo.height} by ${photo.author ?? 'unknown'}`);
    },
  },
  {
    title: 'photos',
    needs: ['photos/list', 'photos/image'],
    async run(client) {
      const page = await client.photosList({ limit: 3 });
      for (const photo of page.items) say(`  · ${photo.id} ${photo.width}×${photo.height} (${photo.source})`);
      const image = await client.photosImage({ id: page.items[0].id });
      say(`photos/image: ${image.contentType}, ${image.bytes} bytes at ${image.path}`);
    },
  },
  {
    title: 'places',
    needs: ['places/categories', 'places/search', 'places/get'],
    async run(client) {
      const { items: categories } = await client.placesCategories({});
      say(`${categories.length} categories: ${categories.map((c) => c.code).join(' ')}`);
      // Seoul City Hall.
      const found = await client.placesSearch({ category: 'CS2', x: 126.9779692, y: 37.566535, radius: 1000, sort: 'distance', size: 5 });
      say(`convenience stores within 1 km of Seoul City Hall: ${found.meta.totalCount}, nearest first:`);
      for (const place of found.items) say(`  · ${place.placeName}, ${place.distance} m`);
      if (found.items.length > 0) {
        const again = await client.placesGet({ id: found.items[0].id });
        say(`places/get ${again.id}: ${again.placeName}, ${again.phone || 'no phone'}`);
      }
    },
  },
];

function say(text) {
  process.stdout.write(`${text}\n`);
}

function short(text, max) {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

async function main() {
  const dataDir = process.env.CATALOGD_DATA_DIR ? null : mkdtempSync(join(tmpdir(), 'catalogd-tour-'));
  const client = await Client.start({ binary: daemonBinary(), env: dataDir ? { CATALOGD_DATA_DIR: dataDir } : {} });
  try {
    say(`connected to ${client.serverInfo.name} ${client.serverInfo.version}`);
    const served = new Set((await client.rpcDiscover()).methods.map((m) => m.name));
    for (const section of SECTIONS) {
      const missing = section.needs.filter((method) => !served.has(method));
      if (missing.length > 0) {
        say(`\n## ${section.title}: skipped, not served by this daemon (${missing.join(', ')})`);
        continue;
      }
      say(`\n## ${section.title}`);
      try {
        await section.run(client);
      } catch (error) {
        if (!(error instanceof RpcError)) throw error;
        say(`failed: ${error.name} ${error.code}: ${error.message}`);
        process.exitCode = 1;
      }
    }
  } finally {
    await client.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
