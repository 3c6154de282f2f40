/**
 * A small till for the Pet Store API, on a client generated from the store's own document
 * (openapi-typescript for the types, openapi-fetch for the calls).
 *
 * It signs in with a pos key from the environment, finds an item, sells it with an
 * Idempotency-Key (retrying with the same key after a network error, a 503 or a 429, waiting
 * Retry-After), hands it over, and follows /events to keep its view of the stock fresh.
 * `basket` rings up several items as one sale paid in cash (with change), prints the
 * receipt's text for a 42-column printer, and refunds the first line's unit with a staff key
 * (`PETSTORE_STAFF_KEY`: a refund is a staff member's decision, not the till's). Errors are
 * shown by their `code`. It exits as soon as it is done: no timer or stream is left open.
 *
 *   PETSTORE_URL=http://127.0.0.1:8080 PETSTORE_KEY=psk_... node dist/till.js sell "Rex" [quantity]
 *   PETSTORE_URL=... PETSTORE_KEY=... node dist/till.js basket "Guppy" "Neon tetra" "Snail"
 */
import { randomUUID } from "node:crypto";
import createClient from "openapi-fetch";
import type { components, paths } from "./schema.js";

type Pet = components["schemas"]["Pet"];
type Order = components["schemas"]["Order"];
type Sale = components["schemas"]["Sale"];
type Refund = components["schemas"]["Refund"];
type ApiError = components["schemas"]["Error"];

const baseUrl = process.env.PETSTORE_URL ?? "http://127.0.0.1:8080";
const key = process.env.PETSTORE_KEY ?? "";
const staffKey = process.env.PETSTORE_STAFF_KEY ?? "";
const ATTEMPTS = 5;

const client = createClient<paths>({ baseUrl, headers: { "X-API-Key": key } });

/** An answer the store refused, with its stable `code`. */
class StoreRefused extends Error {
  constructor(readonly error: ApiError) {
    super(`${error.code}: ${error.message}`);
  }
}

function refused(error: ApiError | undefined, response: Response): never {
  throw new StoreRefused(
    error ?? { code: "internal", message: `HTTP ${response.status}`, status: response.status },
  );
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether `promise` settles within `ms`; its timer is cleared either way, so a finished till
 * is not kept alive for the rest of the wait. */
async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([promise.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** How long to wait before attempt `attempt + 1`: Retry-After when the store sent one. */
function backoff(attempt: number, response?: Response): number {
  const retryAfter = Number(response?.headers.get("Retry-After"));
  const exponential = 250 * 2 ** (attempt - 1);
  return Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : exponential;
}

/** The stock the till knows, kept fresh by the store's change stream. */
class StockView {
  readonly quantities = new Map<number, number>();
  private lastEventId = "";
  private readonly stop = new AbortController();
  private waiters: Array<() => void> = [];
  private markConnected: () => void = () => {};
  /** Settles once the stream is open: the store subscribes it before it answers. */
  readonly connected = new Promise<void>((resolve) => (this.markConnected = resolve));

  /** Follows /events until closed, reconnecting with Last-Event-ID after a drop. */
  async follow(): Promise<void> {
    while (!this.stop.signal.aborted) {
      try {
        const headers: Record<string, string> = { "X-API-Key": key };
        if (this.lastEventId) headers["Last-Event-ID"] = this.lastEventId;
        const res = await fetch(`${baseUrl}/events`, { headers, signal: this.stop.signal });
        if (!res.ok || !res.body) throw new Error(`events: HTTP ${res.status}`);
        this.markConnected();
        const decoder = new TextDecoder();
        let buffer = "";
        const reader = res.body.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          buffer += decoder.decode(value, { stream: true });
          let end: number;
          while ((end = buffer.indexOf("\n\n")) >= 0) {
            this.receive(buffer.slice(0, end));
            buffer = buffer.slice(end + 2);
          }
        }
      } catch {
        if (this.stop.signal.aborted) return;
        await sleep(500);
      }
    }
  }

  private receive(message: string): void {
    let event = "";
    let data = "";
    for (const line of message.split("\n")) {
      if (line.startsWith("id:")) this.lastEventId = line.slice(3).trim();
      else if (line.startsWith("event:")) event = line.slice(6).trim();
      else if (line.startsWith("data:")) data += line.slice(5).trim();
    }
    if (event !== "inventory.updated" || !data) return;
    const item = (JSON.parse(data) as { data: components["schemas"]["InventoryItem"] }).data;
    this.quantities.set(item.petId, item.quantity);
    for (const wake of this.waiters.splice(0)) wake();
  }

  /** Waits (up to `ms`) until the stream reports `petId` at `quantity`. */
  async until(petId: number, quantity: number, ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (this.quantities.get(petId) !== quantity) {
      const left = deadline - Date.now();
      if (left <= 0) return false;
      await within(new Promise<void>((wake) => this.waiters.push(wake)), left);
    }
    return true;
  }

  close(): void {
    this.stop.abort();
  }
}

/** The pet with barcode `text` (when it is 8 to 14 digits), else the pet whose name is `text`
 * (any case), else the first whose name contains it. */
async function find(text: string): Promise<Pet> {
  const scanned = /^[0-9]{8,14}$/.test(text);
  const { data, error, response } = await client.GET("/pets", {
    params: { query: scanned ? { barcode: text } : { q: text, limit: 100 } },
  });
  if (!data) refused(error, response);
  const pet = data.find((p) => p.name.toLowerCase() === text.toLowerCase()) ?? data[0];
  // (a barcode names one pet at most: its only match is data[0])
  if (!pet) refused({ code: "not_found", message: `no pet called ${text}`, status: 404 }, response);
  return pet;
}

/** Places the order, retrying with the same Idempotency-Key: it is never sold twice. */
async function sell(pet: Pet, quantity: number): Promise<Order> {
  return once((idempotencyKey) =>
    client.POST("/store/orders", {
      params: { header: { "Idempotency-Key": idempotencyKey } },
      body: { petId: pet.id, quantity },
    }),
  );
}

/** Retries `call` with the same Idempotency-Key after a network error, a 503, a 429 or a
 * 409 `conflict` (the first try still running): whatever it does is done once. */
async function once<T>(
  call: (idempotencyKey: string) => Promise<{ data?: T; error?: ApiError; response: Response }>,
): Promise<T> {
  const idempotencyKey = `till-${randomUUID()}`;
  for (let attempt = 1; ; attempt++) {
    let answer;
    try {
      answer = await call(idempotencyKey);
    } catch (err) {
      if (attempt >= ATTEMPTS) throw err;
      await sleep(backoff(attempt));
      continue;
    }
    const { data, error, response } = answer;
    if (data) return data;
    const retry =
      response.status === 503 ||
      response.status === 429 ||
      (response.status === 409 && error?.code === "conflict");
    if (!retry || attempt >= ATTEMPTS) refused(error, response);
    await sleep(backoff(attempt, response));
  }
}

/** Rings up one unit of each pet as one sale, paid in cash rounded up to the next 10 (in the
 * currency's whole units, so there is change to give). */
async function ringUp(pets: Pet[]): Promise<Sale> {
  const total = pets.reduce((sum, p) => sum + (p.price ?? 0), 0);
  const cash = (Math.floor(total / 1000) + 1) * 1000;
  return once((idempotencyKey) =>
    client.POST("/store/sales", {
      params: { header: { "Idempotency-Key": idempotencyKey } },
      body: {
        lines: pets.map((p) => ({ petId: p.id, quantity: 1 })),
        payments: [{ method: "cash", amount: cash }],
        till: "Example till",
      },
    }),
  );
}

/** The sale's receipt as plain text, at most 42 characters a line. */
async function receiptText(sale: Sale): Promise<string> {
  const { data, error, response } = await client.GET("/store/sales/{saleId}/receipt", {
    params: { path: { saleId: sale.id } },
    headers: { Accept: "text/plain" },
    parseAs: "text",
  });
  if (data === undefined) refused(error as ApiError | undefined, response);
  return data;
}

/** Gives back one unit of the sale's first line, in cash, back into stock (a staff key's call). */
async function refundFirst(sale: Sale, line: Sale["lines"][number]): Promise<Refund> {
  const staff = createClient<paths>({ baseUrl, headers: { "X-API-Key": staffKey } });
  return once((idempotencyKey) =>
    staff.POST("/store/sales/{saleId}/refunds", {
      params: { path: { saleId: sale.id }, header: { "Idempotency-Key": idempotencyKey } },
      body: { lines: [{ petId: line.petId, quantity: 1 }], method: "cash", reason: "Changed their mind", restock: true },
    }),
  );
}

/** Minor units as a plain amount in a currency of two decimals (the demo's): 1234 → "12.34". */
const money = (minor: number) => (minor / 100).toFixed(2);

async function basket(names: string[]): Promise<void> {
  const pets: Pet[] = [];
  for (const name of names) pets.push(await find(name));
  const sale = await ringUp(pets);
  const [first] = sale.lines;
  const paid = sale.payments.reduce((sum, p) => sum + p.amount, 0);
  console.log(
    `sold sale ${sale.id} (number ${sale.number}): ${sale.lines.length} lines, total ${money(sale.total)}, ` +
      `paid ${money(paid)} in cash, change ${money(sale.change)}`,
  );
  process.stdout.write(await receiptText(sale));
  if (!first) return;
  if (!staffKey) {
    console.log("no refund: it needs a staff key in PETSTORE_STAFF_KEY");
    return;
  }
  const refund = await refundFirst(sale, first);
  console.log(`refunded ${money(refund.amount)} of sale ${sale.id}: 1 x ${first.name}`);
}

/** Marks the order handed over. */
async function handOver(order: Order): Promise<Order> {
  const { data, error, response } = await client.PATCH("/store/orders/{orderId}", {
    params: { path: { orderId: order.id } },
    body: { complete: true },
  });
  if (!data) refused(error, response);
  return data;
}

async function stockOf(petId: number): Promise<number> {
  const { data, error, response } = await client.GET("/store/inventory/{petId}", {
    params: { path: { petId } },
  });
  if (!data) refused(error, response);
  return data.quantity;
}

/** Says why the store refused, in its own words, and gives the exit status 1; rethrows anything else. */
function exitRefused(err: unknown): number {
  if (err instanceof StoreRefused) {
    console.error(`refused: ${err.error.code} (${err.error.status}): ${err.error.message}`);
    return 1;
  }
  throw err;
}

async function main(args: string[]): Promise<number> {
  const [command, name, count] = args;
  if (command === "basket" && args.length >= 2 && key) {
    try {
      await basket(args.slice(1));
      return 0;
    } catch (err) {
      return exitRefused(err);
    }
  }
  if (command !== "sell" || !name || !key) {
    console.error('usage: PETSTORE_KEY=<pos key> node dist/till.js sell "<pet name or barcode>" [quantity]');
    console.error('       PETSTORE_KEY=<pos key> node dist/till.js basket "<pet>" "<pet>" ...');
    return 2;
  }
  const quantity = Number(count ?? "1");
  const stock = new StockView();
  const following = stock.follow();
  try {
    const pet = await find(name);
    const before = await stockOf(pet.id);
    stock.quantities.set(pet.id, before);
    console.log(`${pet.name} (pet ${pet.id}): ${before} in stock`);
    // Sell only once the stream is open, so it cannot miss the sale's own stock change.
    await within(stock.connected, 10_000);
    const order = await handOver(await sell(pet, quantity));
    console.log(`sold order ${order.id}: ${order.quantity} x ${pet.name}, handed over`);
    const fresh = await stock.until(pet.id, before - quantity, 10_000);
    console.log(
      fresh
        ? `stock of ${pet.name} is now ${before - quantity} (from /events)`
        : `no stock event yet for ${pet.name}`,
    );
    return 0;
  } catch (err) {
    return exitRefused(err);
  } finally {
    stock.close();
    await following;
  }
}

process.exitCode = await main(process.argv.slice(2));
