import { QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useEffect } from "react";
import type { Notice } from "@/app/notice";
import { LazyToaster } from "@/components/ui/lazy-toaster";
import { toast } from "@/components/ui/toast";
import { queryClient } from "@/lib/query-client";

const shown = new WeakSet<Notice>();

/** Shown once; it waits for the toaster to load (`toast.ts`). */
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
      <LazyToaster />
      {notice ? <InitialNotice notice={notice} /> : null}
    </QueryClientProvider>
  );
}
