import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export type StripeRequest = { method: string; path: string; form: URLSearchParams; authorization: string };

/** A local stand-in for api.stripe.com: answers the few calls billing makes, and records them. */
export async function startFakeStripe() {
  const requests: StripeRequest[] = [];
  let customers = 0;
  const subscriptions = new Map<string, { customer: string; cancel: boolean; periodEnd: number }>();

  const subscriptionObject = (id: string) => {
    const sub = subscriptions.get(id);
    return {
      id,
      object: "subscription",
      customer: sub?.customer,
      status: "active",
      cancel_at_period_end: sub?.cancel ?? false,
      items: {
        object: "list",
        data: [
          {
            id: "si_1",
            object: "subscription_item",
            price: { id: "price_monthly" },
            current_period_end: sub?.periodEnd,
          },
        ],
      },
    };
  };

  const server: Server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      const path = request.url ?? "";
      const form = new URLSearchParams(body);
      requests.push({
        method: request.method ?? "",
        path,
        form,
        authorization: String(request.headers.authorization ?? ""),
      });
      const send = (status: number, payload: unknown) => {
        response.writeHead(status, { "content-type": "application/json", "request-id": "req_fake" });
        response.end(JSON.stringify(payload));
      };
      if (request.method === "POST" && path === "/v1/customers") {
        customers++;
        return send(200, { id: `cus_fake_${customers}`, object: "customer" });
      }
      if (request.method === "POST" && path === "/v1/billing_portal/sessions") {
        return send(200, {
          id: "bps_fake",
          object: "billing_portal.session",
          url: `https://billing.stripe.test/p/session/${form.get("customer")}`,
          return_url: form.get("return_url"),
        });
      }
      const match = /^\/v1\/subscriptions\/([\w-]+)$/.exec(path);
      if (request.method === "POST" && match?.[1] && subscriptions.has(match[1])) {
        const sub = subscriptions.get(match[1]);
        if (sub) sub.cancel = form.get("cancel_at_period_end") === "true";
        return send(200, subscriptionObject(match[1]));
      }
      send(404, { error: { type: "invalid_request_error", message: `No such route: ${path}` } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    endpoint: { host: "127.0.0.1", port, protocol: "http" as const },
    requests,
    /** A subscription Stripe knows, as a webhook would describe it. */
    addSubscription(id: string, customer: string, periodEnd: number) {
      subscriptions.set(id, { customer, cancel: false, periodEnd });
      return subscriptionObject(id);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
