import "./index.css";
import { StrictMode, startTransition } from "react";
import { createRoot } from "react-dom/client";
import { RouterProvider } from "react-router/dom";
import { takeNotice } from "@/app/notice";
import { AppProviders } from "@/app/providers";
import { createAppRouter } from "@/app/router";
import { numberFormat } from "@/lib/number-format";
import { prefetchCurrentUser } from "@/lib/session";
import { cn } from "@/lib/utils";

const container = document.getElementById("root");
if (!container) throw new Error("index.html has no #root element");

/**
 * Start-up is a few steps of tens of milliseconds each on a slow phone. Run back to back they are
 * one long task that holds the page still; between them the browser may paint and answer input.
 */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

prefetchCurrentUser(window.location.pathname);
await nextTask();
const router = createAppRouter();
await nextTask();
// tailwind-merge builds its class map on its first call: here, rather than inside the first render.
cn("");
await nextTask();
// The page's first Intl object loads ICU's data, whatever its kind: tens of milliseconds on a slow
// phone, which would otherwise land inside the render that first formats a number or a date.
numberFormat();
await nextTask();
const root = createRoot(container);
// As a transition, React renders the first screen in slices and lets the browser in between.
startTransition(() =>
  root.render(
    <StrictMode>
      {/* A notice the sign-in page left for the app ("Login successful"), shown once. */}
      <AppProviders notice={takeNotice()}>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>,
  ),
);
