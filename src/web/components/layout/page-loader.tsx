import { Spinner } from "@/components/ui/spinner";

/** Fills the screen while a session is checked or a lazy screen loads. */
export function PageLoader() {
  return (
    <div role="status" className="flex min-h-svh items-center justify-center text-muted-foreground">
      <Spinner className="size-6" />
      <span className="sr-only">Loading</span>
    </div>
  );
}
