"use client";

// Shown when the root layout itself failed, so no translations or styles have loaded: both
// languages, inline styles.
export default function GlobalError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <html lang="en">
      <body style={{ fontFamily: "system-ui, sans-serif", maxWidth: 560, margin: "4rem auto", padding: "0 1.5rem", lineHeight: 1.6 }}>
        <h1 style={{ fontSize: "1.25rem" }}>This page could not be shown</h1>
        <p>An unexpected error stopped it. Reload to try again; if it keeps happening, the server log has the details.</p>
        <h1 lang="ja" style={{ fontSize: "1.25rem" }}>このページを表示できませんでした</h1>
        <p lang="ja">予期しないエラーで表示が止まりました。再読み込みしてください。繰り返し起きる場合は、サーバーログに詳細があります。</p>
        {error.digest ? <p style={{ fontFamily: "monospace", fontSize: "0.85rem" }}>{error.digest}</p> : null}
        <button type="button" onClick={reset} style={{ marginTop: "1rem", padding: "0.5rem 1rem" }}>
          Reload · 再読み込み
        </button>
      </body>
    </html>
  );
}
