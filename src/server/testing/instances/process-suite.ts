// What every instance test file shares: HAProxy's presence decides skip or fail, and a failed test
// prints the servers' last lines.
import { afterEach } from "vitest";
import { haproxyInstalled } from "../local-servers";

/**
 * Without haproxy a developer's run skips the balancer tests with a message; CI installs it
 * (.ci/run), so there its absence fails the run instead of silently proving nothing.
 */
export function haproxyMissing(why: string): boolean {
  if (haproxyInstalled()) return false;
  if (process.env.CI) throw new Error("haproxy is missing: .ci/run installs it (apt-get install haproxy)");
  console.warn(`SKIPPED: ${why} needs /usr/sbin/haproxy (apt-get install haproxy)`);
  return true;
}

/** After a failed test, the servers' own account of it. */
export function printOutputOnFailure(output: () => string | undefined) {
  afterEach((context) => {
    if (context.task.result?.state === "fail") console.error(output() ?? "");
  });
}

/** A figure for the closing note, easy to find in the test output. */
export function report(test: string, figures: Record<string, unknown>) {
  console.log(`[${test}] ${JSON.stringify(figures)}`);
}
