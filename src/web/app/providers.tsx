import { QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useEffect } from "react";
import { toast } from "sonner";
import type { Notice } from "@/app/notice";
import { Toaster } from "@/components/ui/sonner";
import { queryClient } from "@/lib/query-client";

const shown = new WeakSet<Notice>();

/** After the toaster in the tree, so its effect runs once the toaster listens; shown once. */
function InitialNotice({ notice }: { notice: Notice }) {
  useEffect(() => {
    if (shown.has(notice)) return;
    shown.add(notice);
    toast[notice.kind](notice.message);
  }, [notice]);
  return null;
}

export function AppProviders({ children, notice }: { children: ReactNode; notice?: Notice }) {
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <Toaster />
      {notice ? <InitialNotice notice={notice} /> : null}
    </QueryClientProvider>
  );
}
