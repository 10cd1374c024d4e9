import type { Json } from "./json.ts";

/**
 * Where the emulator keeps Stripe's objects: the sandbox's `SandboxStore` shape (server
 * providers/payments/types.ts) plus `list`, so the database store of the sandbox
 * (table sandbox_objects) can hold them and every instance sees one state. `object` is the
 * Stripe object name ("checkout.session", "invoice", ...). Ids are unique across objects.
 */
export interface EmulatorStore {
  get(id: string): Promise<Json | null>;
  put(id: string, object: string, data: Json): Promise<void>;
  /** Writes the object only when the id is new; false when it existed. */
  create(id: string, object: string, data: Json): Promise<boolean>;
  /**
   * Replaces the object only while its `field` (default `status`) is `from`; false when it was
   * not (compare-and-set: of two writers, one wins).
   */
  transition(id: string, from: string, data: Json, field?: string): Promise<boolean>;
  /** Every object of one kind, oldest first. */
  list(object: string): Promise<Json[]>;
}

/** The object names the emulator stores, the bookkeeping ones included. */
export const StripeObjects = {
  product: "product",
  price: "price",
  customer: "customer",
  session: "checkout.session",
  paymentIntent: "payment_intent",
  charge: "charge",
  refund: "refund",
  dispute: "dispute",
  coupon: "coupon",
  promotionCode: "promotion_code",
  subscription: "subscription",
  invoice: "invoice",
  paymentMethod: "payment_method",
  /** An Idempotency-Key's first answer. */
  idempotency: "idempotency_record",
  /** A sequence (invoice numbers). */
  counter: "counter",
} as const;
