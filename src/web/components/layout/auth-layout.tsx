import type { ReactNode } from "react";
import { BrandMark } from "@/components/layout/brand-logo";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { cn } from "@/lib/utils";

type AuthLayoutProps = {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  /** Widens the card (the set-up wizard needs room for its chips). */
  className?: string;
};

/** The centred card every account screen (auth, verify, forgot, reset, setup) sits in. */
export function AuthLayout({ title, description, children, className }: AuthLayoutProps) {
  return (
    <main className="flex min-h-svh items-center justify-center bg-muted/40 px-4 py-10">
      <Card className={cn("w-full max-w-md", className)}>
        <CardHeader className="justify-items-center text-center">
          <div className="mb-2 flex size-16 items-center justify-center rounded-full bg-accent">
            <BrandMark className="size-11" />
          </div>
          <CardTitle>
            <h1 className="text-2xl tracking-tight">{title}</h1>
          </CardTitle>
          {description ? <CardDescription>{description}</CardDescription> : null}
        </CardHeader>
        <CardContent>{children}</CardContent>
      </Card>
    </main>
  );
}
