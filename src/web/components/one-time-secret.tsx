import type { ReactNode } from "react";
import { CopyButton } from "@/components/copy-button";
import { Button } from "@/components/ui/button";
import { DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";

type OneTimeSecretProps = {
  title: string;
  description: ReactNode;
  secret: string;
  copyLabel?: string;
  testId?: string;
  onDone: () => void;
};

/**
 * A dialog's view of a secret the server answers in full only once (an API key, a webhook signing
 * secret): shown whole, wrapped rather than cut, with a copy button and Done. Lists show it masked.
 */
export function OneTimeSecret({
  title,
  description,
  secret,
  copyLabel = "Copy",
  testId,
  onDone,
}: OneTimeSecretProps) {
  return (
    <>
      <DialogHeader>
        <DialogTitle>{title}</DialogTitle>
        <DialogDescription>{description}</DialogDescription>
      </DialogHeader>
      <div className="grid gap-3">
        <code
          data-testid={testId}
          className="block break-all rounded-md border bg-muted px-3 py-2 font-mono text-sm"
        >
          {secret}
        </code>
        <CopyButton text={secret} label={copyLabel} />
      </div>
      <DialogFooter>
        <Button type="button" onClick={onDone}>
          Done
        </Button>
      </DialogFooter>
    </>
  );
}
