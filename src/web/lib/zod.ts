// Every `import ... from "zod"` of the web app resolves to this module (vite.config.ts), so zod is
// configured here before any schema, in src/shared or src/web, is built.
import { z } from "zod/v4";

// The page's CSP has no 'unsafe-eval'. Zod probes `new Function("")` when it builds its first object
// schema, to decide whether it may compile parsers; the probe fails and zod falls back, but Chromium
// still reports the refused eval as a CSP violation on every page (Lighthouse's best practices and
// DevTools' Issues panel show it). jitless skips the probe, and the compiled parsers the CSP would
// refuse anyway.
z.config({ jitless: true });

export * from "zod/v4";
export { z, z as default };
