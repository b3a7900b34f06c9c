/**
 * What the embedded demo's first start creates: one consumer, a small event-type catalog, and one
 * endpoint per receiver the app serves itself (app/api/demo/receiver/[name]) — one healthy (and
 * ordered), one flaky (and filtered), one retired — so the first look shows successes, retries, an
 * outage and its alerts, a filter and a line, and a schema enforced.
 */
export const DEMO_CONSUMER = {
  uid: "acme",
  name: "Acme Corp",
  alert_emails: ["ops@acme.example"],
  metadata: { plan: "enterprise", region: "eu-west" },
};

export const DEMO_EVENT_TYPES = [
  {
    name: "invoice.paid",
    description: "An invoice was paid in full.",
    example: { invoice_id: "in_1001", customer_id: "cus_42", amount: 4900, currency: "eur" },
    // A contract checked at ingest: a payload that breaks it is accepted and marked (docs/delivery.md#event-schemas).
    schema: {
      type: "object",
      required: ["invoice_id", "customer_id", "amount", "currency"],
      properties: {
        invoice_id: { type: "string", pattern: "^in_" },
        customer_id: { type: "string" },
        amount: { type: "integer", minimum: 0 },
        currency: { type: "string", enum: ["eur", "usd", "jpy"] },
      },
    },
    enforcement: "warn",
  },
  {
    name: "user.created",
    description: "A user signed up to the customer's workspace.",
    example: { user_id: "usr_7", email: "jane@acme.example", role: "member" },
  },
  {
    name: "subscription.canceled",
    description: "A subscription was canceled; it ends at the close of the period.",
    example: { subscription_id: "sub_9", customer_id: "cus_42", ends_at: "2026-12-31T23:59:59Z" },
  },
] as const;

export const DEMO_RECEIVERS = ["ok", "flaky", "retired"] as const;
export type DemoReceiver = (typeof DEMO_RECEIVERS)[number];

export const DEMO_RECEIVER_PATH = "/api/demo/receiver/";

export const DEMO_ENDPOINTS: {
  receiver: DemoReceiver;
  description: string;
  event_types: string[] | null;
  filter?: Record<string, unknown>;
  ordering?: { ordering: "ordered"; ordering_key: string };
}[] = [
  // In order per customer, as a billing system wants its events (docs/delivery.md#ordered-delivery).
  { receiver: "ok", description: "Billing sync (always answers 200)", event_types: null, ordering: { ordering: "ordered", ordering_key: "customer_id" } },
  {
    receiver: "flaky",
    description: "Analytics (refuses a quarter of messages once with 503; sometimes slow)",
    event_types: ["invoice.paid", "subscription.canceled"],
    // Only invoices of 10.00 and more: the smaller ones show "Filtered out" on their message's page.
    filter: { $or: [{ event_type: "subscription.canceled" }, { amount: { $gte: 1000 } }] },
  },
  { receiver: "retired", description: "Old CRM hook (retired: answers 410 Gone)", event_types: ["user.created"] },
];

/** How many messages the first start sends, in waves so the per-minute charts span more than one bar. */
export const DEMO_MESSAGES = 300;
export const DEMO_WAVES = 10;

/** The i-th demo message: a deterministic mix of the catalog's event types with plausible payloads. */
export function demoMessage(i: number): { event_type: string; payload: Record<string, unknown>; event_id: string } {
  const n = 1000 + i;
  const variant = i % 10 < 5 ? 0 : i % 10 < 8 ? 1 : 2;
  const customer = `cus_${(i * 7) % 53}`;
  if (variant === 0) {
    return {
      event_type: "invoice.paid",
      event_id: `evt_in_${n}`,
      payload: { invoice_id: `in_${n}`, customer_id: customer, amount: 900 + ((i * 37) % 40) * 100, currency: "eur" },
    };
  }
  if (variant === 1) {
    return {
      event_type: "user.created",
      event_id: `evt_usr_${n}`,
      payload: { user_id: `usr_${n}`, email: `user${n}@acme.example`, role: i % 3 === 0 ? "admin" : "member" },
    };
  }
  return {
    event_type: "subscription.canceled",
    event_id: `evt_sub_${n}`,
    payload: { subscription_id: `sub_${n}`, customer_id: customer, ends_at: "2026-12-31T23:59:59Z" },
  };
}
