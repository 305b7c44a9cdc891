import { PASSWORD_RULES } from "@shared/auth-rules";
import { Check, X } from "lucide-react";
import { cn } from "@/lib/utils";

/** SPEC §2 Register: the password rules, green when met and red when not, live as the user types. */
export function PasswordChecklist({ password }: { password: string }) {
  return (
    <ul data-testid="password-checklist" className="grid gap-1 text-sm">
      {PASSWORD_RULES.map((rule) => {
        const met = rule.test(password);
        const Icon = met ? Check : X;
        return (
          <li
            key={rule.id}
            data-rule={rule.id}
            data-met={met}
            className={cn("flex items-center gap-2", met ? "text-success" : "text-destructive")}
          >
            <Icon className="size-4 shrink-0" aria-hidden="true" />
            <span className="sr-only">{met ? "Requirement met:" : "Requirement not met:"}</span>
            {rule.label}
          </li>
        );
      })}
    </ul>
  );
}
