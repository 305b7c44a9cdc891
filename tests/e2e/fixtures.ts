// Every spec's `test`: Playwright's, failing a test whose pages log a console error, throw, or break
// the Content-Security-Policy, unless the spec said it provokes that error on purpose.
import { type BrowserContext, test as base } from "@playwright/test";

export { expect } from "@playwright/test";

/**
 * Chromium reports a refused eval, style or script to DevTools' Issues panel, not always to the
 * console (a caught `new Function` logs nothing there), so each document reports its own
 * violations as console errors, where the listener below collects them. Init scripts are not
 * subject to the page's CSP.
 */
function reportCspViolations() {
  window.addEventListener("securitypolicyviolation", (event) => {
    console.error(
      `Content-Security-Policy violation: ${event.effectiveDirective} refused ${event.blockedURI || "inline code"} (${event.sourceFile}:${event.lineNumber}:${event.columnNumber})`,
    );
  });
}

/**
 * Playwright's trace recorder (trace: "retain-on-failure" records every test) injects its snapshot
 * script into every frame; the collateral preview is a sandboxed frame without scripts, which
 * refuses it and logs this. No script of the app's goes there.
 */
const TRACING_NOISE = /^Blocked script execution in 'about:srcdoc' because the document's frame is sandboxed/;

function escapeRegExp(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

export class ConsoleErrors {
  private readonly logged: string[] = [];
  private readonly allowed = new Map<RegExp, number>();

  /**
   * An error this spec provokes on purpose. The pattern is matched against the message followed
   * by the URL it names, and must match at least once, so an allowance never outlives its cause.
   */
  allow(pattern: RegExp) {
    this.allowed.set(pattern, 0);
  }

  /**
   * The "Failed to load resource" line Chromium logs for every 4xx or 5xx answer to a fetch, for
   * one API path (any query string): the app cannot keep it out of the console.
   */
  allowFailedRequest(status: number, path: string) {
    this.allow(
      new RegExp(
        `^Failed to load resource: the server responded with a status of ${status} .* https?://[^/]+${escapeRegExp(path)}(\\?\\S*)?$`,
      ),
    );
  }

  async watch(context: BrowserContext) {
    context.on("console", (message) => {
      if (message.type() !== "error" || TRACING_NOISE.test(message.text())) return;
      const { url, lineNumber } = message.location();
      const where = url ? ` ${url}${lineNumber ? `:${lineNumber}` : ""}` : "";
      this.record(`${message.text()}${where}`);
    });
    context.on("weberror", (error) => this.record(`Uncaught ${error.error().stack ?? error.error()}`));
    await context.addInitScript(reportCspViolations);
  }

  private record(entry: string) {
    for (const [pattern, count] of this.allowed) {
      if (pattern.test(entry)) {
        this.allowed.set(pattern, count + 1);
        return;
      }
    }
    this.logged.push(entry);
  }

  /** Throws what was logged that no allowance covers, and allowances that nothing matched. */
  check() {
    const problems = this.logged.map((entry) => `logged: ${entry}`);
    for (const [pattern, count] of this.allowed) {
      if (count === 0) problems.push(`allowed but never logged: ${pattern}`);
    }
    if (problems.length) throw new Error(`The browser console was not clean:\n  ${problems.join("\n  ")}`);
  }
}

export const test = base.extend<{ consoleErrors: ConsoleErrors }>({
  consoleErrors: [
    async ({ browser, context }, use) => {
      const consoleErrors = new ConsoleErrors();
      await consoleErrors.watch(context);
      // Contexts a spec opens itself (a second user's browser) are watched too.
      const watching: Promise<void>[] = [];
      const watchNew = (created: BrowserContext) => watching.push(consoleErrors.watch(created));
      browser.on("context", watchNew);
      try {
        await use(consoleErrors);
      } finally {
        browser.off("context", watchNew);
      }
      await Promise.all(watching);
      consoleErrors.check();
    },
    { auto: true },
  ],
});
