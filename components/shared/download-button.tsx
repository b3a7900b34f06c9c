"use client";

import { Download } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { Button } from "../ui/button";
import type { FileRoute } from "./api";
import { useApi } from "./api-context";
import { useErrorText } from "./error-message";

/**
 * Downloads an /api/v1 answer as a file through the app's own credential: a plain link would
 * carry the dashboard's cookie but not the portal's bearer session, so the body is fetched, held
 * as a Blob and saved from an object URL. `part` saves a part of a JSON answer instead (a schema
 * version's `schema`, not the envelope around it), pretty-printed.
 */
export function DownloadButton({
  route,
  path,
  filename,
  label,
  part,
}: {
  route: FileRoute;
  path: string;
  filename: string;
  label: string;
  part?: (answer: unknown) => unknown;
}) {
  const call = useApi();
  const errorText = useErrorText();
  const [busy, setBusy] = useState(false);
  return (
    <Button
      variant="secondary"
      size="sm"
      disabled={busy}
      onClick={async () => {
        setBusy(true);
        try {
          const body = await call(route, path, { as: "blob" });
          const blob = part ? new Blob([`${JSON.stringify(part(JSON.parse(await body.text())), null, 2)}\n`], { type: "application/json" }) : body;
          const url = URL.createObjectURL(blob);
          const link = document.createElement("a");
          link.href = url;
          link.download = filename;
          link.click();
          // The click has handed the URL to the download; the Blob can go once it has started.
          setTimeout(() => URL.revokeObjectURL(url), 10_000);
        } catch (error) {
          toast.error(errorText(error));
        } finally {
          setBusy(false);
        }
      }}
    >
      <Download aria-hidden className="h-3.5 w-3.5" />
      {label}
    </Button>
  );
}
