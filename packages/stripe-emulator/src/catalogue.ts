import { type EmulatorDeps, mustGet, save } from "./deps.ts";
import { notFound } from "./errors.ts";
import type { Json } from "./json.ts";
import { StripeObjects } from "./store.ts";

/** Products and prices: what the admin's catalogue sync makes, edits and deactivates. */
export async function createProduct(deps: EmulatorDeps, body: Json): Promise<Json> {
  const product: Json = {
    id: deps.newId("prod"),
    object: "product",
    name: body.name,
    description: body.description ?? null,
    active: true,
    metadata: body.metadata ?? {},
    created: deps.clock.now(),
  };
  await save(deps, product);
  return product;
}

export const listProducts = (deps: EmulatorDeps) => deps.store.list(StripeObjects.product);

export const retrieveProduct = (deps: EmulatorDeps, productId: string) =>
  mustGet(deps, productId, "product");

export async function updateProduct(deps: EmulatorDeps, productId: string, body: Json) {
  const product = await mustGet(deps, productId, "product");
  if (body.name !== undefined) product.name = body.name;
  if (body.description !== undefined) product.description = body.description || null;
  if (body.active !== undefined) product.active = body.active === "true";
  await save(deps, product);
  return product;
}

/** A price's recurrence as the API answers it, from the form's. */
export const recurringOf = (recurring: Json | undefined) =>
  recurring
    ? { interval: recurring.interval, interval_count: Number(recurring.interval_count ?? 1) }
    : null;

export async function createPrice(deps: EmulatorDeps, body: Json): Promise<Json> {
  const product = await deps.store.get(String(body.product));
  if (product?.object !== "product") throw notFound("product", String(body.product));
  const recurring = body.recurring as Json | undefined;
  const price: Json = {
    id: deps.newId("price"),
    object: "price",
    product: body.product,
    unit_amount: Number(body.unit_amount),
    currency: body.currency,
    active: true,
    metadata: body.metadata ?? {},
    recurring: recurringOf(recurring),
    type: recurring ? "recurring" : "one_time",
  };
  await save(deps, price);
  return price;
}

export const retrievePrice = (deps: EmulatorDeps, priceId: string) =>
  mustGet(deps, priceId, "price");

export async function updatePrice(deps: EmulatorDeps, priceId: string, body: Json) {
  const price = await mustGet(deps, priceId, "price");
  if (body.active !== undefined) {
    price.active = body.active === "true";
    await save(deps, price);
  }
  return price;
}
