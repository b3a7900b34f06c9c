"use client";

import { Download } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { Button } from "../ui/button";
import type { ApiRoute } from "./api";
import { useApi } from "./api-context";
import { useErrorText } from "./error-message";

/**
 * Downloads an /api/v1 answer as a file through the app's own credential: a plain link would
 * carry the dashboard's cookie but not the portal's bearer session, so the body is fetched, held
 * as a Blob and saved from an object URL.
 */
export function DownloadButton({ route, path, filename, label }: { route: ApiRoute; path: string; filename: string; label: string }) {
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
          const blob = await call(route, path, { as: "blob" });
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
