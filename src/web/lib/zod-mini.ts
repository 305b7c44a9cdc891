// Every `import ... from "zod/mini"` of the web app resolves to this module (vite.config.ts): the
// sign-in page's schemas are zod/mini, and its first parse must not probe eval either (lib/zod.ts).
import { config } from "zod/v4/mini";

config({ jitless: true });

export * from "zod/v4/mini";
