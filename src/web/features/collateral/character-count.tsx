import { cn } from "@/lib/utils";

/** A field's live `n/max` counter (SPEC §2); red once the value is over its limit. */
export function CharacterCount({ value, max }: { value: string | null | undefined; max: number }) {
  const count = value?.length ?? 0;
  return (
    <span
      data-testid="character-count"
      className={cn("text-muted-foreground text-xs tabular-nums", count > max && "text-destructive")}
    >
      {count}/{max}
    </span>
  );
}
