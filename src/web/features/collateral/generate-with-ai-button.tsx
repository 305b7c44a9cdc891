import { Sparkles } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";

type GenerateWithAiButtonProps = {
  pending: boolean;
  /** SPEC §8: a failed generation is shown on the button itself, until the next try. */
  failed: boolean;
  onClick: () => void;
};

export function GenerateWithAiButton({ pending, failed, onClick }: GenerateWithAiButtonProps) {
  return (
    <Button
      type="button"
      variant="secondary"
      disabled={pending}
      aria-busy={pending}
      onClick={onClick}
      className={failed ? "text-destructive" : undefined}
    >
      {pending ? <Spinner /> : <Sparkles />}
      {pending ? "Generating..." : failed ? "AI Error :(" : "Generate with AI"}
    </Button>
  );
}
