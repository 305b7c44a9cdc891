import { cn } from "@/lib/utils";

/** SPEC §1: the brand is a friendly buddy-style assistant; drawn inline so it needs no request. */
export function BrandMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" className={cn("size-8 shrink-0", className)}>
      <circle cx="16" cy="16" r="16" className="fill-primary" />
      <rect x="15" y="5.5" width="2" height="4.5" rx="1" className="fill-primary-foreground" />
      <circle cx="16" cy="5.5" r="1.6" className="fill-primary-foreground" />
      <rect x="7.5" y="10" width="17" height="13.5" rx="5.5" className="fill-primary-foreground" />
      <circle cx="12.8" cy="16" r="1.8" className="fill-primary" />
      <circle cx="19.2" cy="16" r="1.8" className="fill-primary" />
      <path
        d="M12.8 19.6c1.8 1.3 4.6 1.3 6.4 0"
        strokeWidth="1.5"
        strokeLinecap="round"
        fill="none"
        className="stroke-primary"
      />
    </svg>
  );
}

/** The mark with the "Buddy" word, as the header shows it. */
export function BrandLogo({ className }: { className?: string }) {
  return (
    <span className={cn("inline-flex items-center gap-2 font-semibold text-lg tracking-tight", className)}>
      <BrandMark className="size-7" />
      Buddy
    </span>
  );
}
