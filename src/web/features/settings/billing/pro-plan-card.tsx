import { PRO_PLAN } from "@shared/billing";
import { Check } from "lucide-react";
import { Button } from "@/components/ui/button";

const usd = (amount: number) => `$${amount.toLocaleString("en-US")}`;

/** SPEC §2: the Pro plan, under an overlay while the beta waives platform fees. */
export function ProPlanCard() {
  return (
    <section aria-label="Pro plan" className="relative overflow-hidden rounded-lg border">
      <div className="grid gap-4 p-5 opacity-50">
        <div>
          <h3 className="font-semibold text-lg">{PRO_PLAN.name}</h3>
          <p className="mt-1">
            <span className="font-bold text-3xl">{usd(PRO_PLAN.monthlyPrice)}</span>
            <span className="text-muted-foreground">/month</span>
          </p>
          <p className="text-muted-foreground text-sm">
            or {usd(PRO_PLAN.annualMonthlyPrice)}/month billed annually ({usd(PRO_PLAN.annualPrice)}/year)
          </p>
        </div>
        <ul className="grid gap-2 text-sm">
          {PRO_PLAN.features.map((feature) => (
            <li key={feature} className="flex items-center gap-2">
              <Check className="size-4 text-primary" />
              {feature}
            </li>
          ))}
        </ul>
        <div className="flex flex-col gap-2 sm:flex-row">
          <Button disabled>Subscribe Monthly</Button>
          <Button variant="outline" disabled>
            Subscribe Annually
          </Button>
        </div>
      </div>
      <div role="note" className="absolute inset-0 grid place-items-center bg-background/40 p-6 text-center">
        <div className="grid max-w-sm gap-1 rounded-lg border bg-background p-4 shadow-sm">
          <p className="font-semibold">Free during the beta</p>
          <p className="text-muted-foreground text-sm">Platform fees are waived while Buddy is in beta.</p>
        </div>
      </div>
    </section>
  );
}
