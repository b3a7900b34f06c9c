export default function Home() {
  return (
    <main className="mx-auto max-w-2xl px-6 py-16">
      <h1 className="text-3xl font-semibold tracking-tight">Webhook Admin</h1>
      <p className="mt-3 text-slate-600">
        Self-hosted webhook sending: your product calls one REST route, and every event is delivered, signed with
        Standard Webhooks, to your customers&apos; endpoints — retried, logged and recoverable.
      </p>
      <ul className="mt-8 space-y-2 text-sm">
        <li>
          <a className="text-indigo-700 underline" href="/api/v1/openapi.json">
            REST API reference (OpenAPI 3.1)
          </a>
        </li>
        <li>
          <a className="text-indigo-700 underline" href="/api/health">
            Health
          </a>
        </li>
      </ul>
    </main>
  );
}
