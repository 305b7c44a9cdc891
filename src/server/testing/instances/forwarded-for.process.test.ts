import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClickIds } from "../../modules/tracking/clicks/click-id";
import { type BuddyProcess, createOrganization, startBuddy } from "../buddy-process";
import { type Haproxy, startHaproxy } from "../local-servers";
import { browserAgent, must } from "./partners";
import { haproxyMissing, printOutputOnFailure } from "./process-suite";

const SIGNUPS_PER_CLIENT = 3;
const LEADS_PER_CLIENT = 2;

/**
 * Issue 34 §5: behind a balancer that appends the client's address to X-Forwarded-For (HAProxy's
 * `option forwardfor`) and TRUST_PROXY=true, a client that writes addresses of its own into the
 * header before it gets no more sign-ups or pixel leads than any other. Two clients on two loopback
 * addresses (127.0.0.2 and 127.0.0.3) show the address still comes from the header: each has its
 * own allowance, though both reach the server from HAProxy's one address.
 */
describe.skipIf(haproxyMissing("client addresses through HAProxy"))(
  "a client address no client can write, through HAProxy",
  () => {
    let server: BuddyProcess;
    let balancer: Haproxy;
    let pixelPath: () => string;
    beforeAll(async () => {
      // PGlite in the instance's own folder: one process, nothing shared to set up.
      server = await startBuddy({
        stdio: "capture",
        env: {
          TRUST_PROXY: "true",
          RATE_LIMIT_PER_IP: String(SIGNUPS_PER_CLIENT),
          PIXEL_RATE_LIMIT_PER_IP: String(LEADS_PER_CLIENT),
        },
      });
      balancer = await startHaproxy([{ name: "a", port: server.port }], { forwardFor: true });
      // Set up on the instance itself (127.0.0.1, no header): the clients' allowances stay whole.
      const idOf = async (token: string) =>
        (await must<{ user: { organizationId: string } }>(server.origin, "/api/me", token)).user
          .organizationId;
      const sharerId = await idOf(await server.createOrganization("xffsharer", "An analytics tool"));
      const partnerId = await idOf(
        await createOrganization(server.origin, server.mail, "xffpartner", "A help desk"),
      );
      // Click ids as the instance issues them (the same APP_SECRET): each pixel hit is a new lead.
      const clickIds = createClickIds(server.appSecret);
      pixelPath = () =>
        `/api/marketing/conversion/${clickIds.issue(sharerId, partnerId, Date.now())}?type=signup&org=${partnerId}`;
    }, 90_000);
    afterAll(async () => {
      await balancer?.stop();
      await server?.stop();
    });
    printOutputOnFailure(() => server?.output());

    /** A request to the balancer from the loopback address `client`, with its own X-Forwarded-For. */
    const from = (client: string, forgedFor: string, method: string, url: string, body?: unknown) =>
      new Promise<number>((resolve, reject) => {
        const payload = body === undefined ? undefined : JSON.stringify(body);
        const sent = request(
          {
            host: "127.0.0.1",
            port: balancer.port,
            localAddress: client,
            method,
            path: url,
            headers: {
              "x-forwarded-for": forgedFor,
              "user-agent": browserAgent(client),
              ...(payload ? { "content-type": "application/json" } : {}),
            },
          },
          (response) => {
            response.resume();
            response.once("end", () => resolve(response.statusCode ?? 0));
          },
        );
        sent.once("error", reject);
        sent.end(payload);
      });

    const signUp = (client: string, forgedFor: string, n: number) =>
      from(client, forgedFor, "POST", "/api/auth", {
        email: `forged-${n}-${Date.now()}@xffmail.example`,
        password: "Bench-pass1!",
        mode: "signup",
      });

    it("gives a client forging X-Forwarded-For no extra sign-ups", async () => {
      const statuses: number[] = [];
      for (let n = 0; n <= SIGNUPS_PER_CLIENT; n++)
        statuses.push(await signUp("127.0.0.2", `198.51.100.${n}`, n));
      expect(statuses).toEqual([...Array(SIGNUPS_PER_CLIENT).fill(201), 429]);
      // Another client, writing the very address the first one last wrote, has its own allowance.
      expect(await signUp("127.0.0.3", `198.51.100.${SIGNUPS_PER_CLIENT}`, 100)).toBe(201);
    });

    it("gives a client forging X-Forwarded-For no extra pixel leads", async () => {
      const statuses: number[] = [];
      for (let n = 0; n <= LEADS_PER_CLIENT; n++)
        statuses.push(await from("127.0.0.2", `203.0.113.${n}, 192.0.2.${n}`, "GET", pixelPath()));
      expect(statuses).toEqual([...Array(LEADS_PER_CLIENT).fill(200), 429]);
      expect(await from("127.0.0.3", "203.0.113.0", "GET", pixelPath())).toBe(200);
    });
  },
);
