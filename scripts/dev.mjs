// `npm run dev`: the API under tsx watch on :3000 and Vite's dev server (proxying /api) on :5173.
import { spawn } from "node:child_process";

const children = [
  spawn("npx", ["tsx", "watch", "--tsconfig", "tsconfig.server.json", "src/server/main.ts"], {
    stdio: "inherit",
    env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? "info" },
  }),
  spawn("npx", ["vite"], { stdio: "inherit" }),
];
const stop = () => {
  for (const child of children) child.kill("SIGTERM");
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
for (const child of children) child.on("exit", (code) => code && stop());
