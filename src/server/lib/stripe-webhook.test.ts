import { createHmac } from "node:crypto";
import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { StripeSignatureError, signedJson, verifyStripeSignature } from "./stripe-webhook";

const SECRET = "whsec_unitSigningSecret0123456789";
const body = Buffer.from('{"id":"evt_1","type":"invoice.paid"}');
const NOW_MS = 1_750_000_000_000;
const now = NOW_MS / 1000;
const header = (timestamp: number, secret = SECRET) =>
  Stripe.webhooks.generateTestHeaderString({ payload: body.toString(), secret, timestamp });
const verify = (signature: string) => () => verifyStripeSignature(body, signature, SECRET, NOW_MS);

describe("a Stripe-Signature (CONTRACT §8)", () => {
  it("is accepted within 5 minutes of now, either side", () => {
    for (const offset of [0, 300, -300, 240, -240]) expect(verify(header(now + offset))).not.toThrow();
  });

  it("is refused dated more than 5 minutes ahead or ago, the stripe package's one-sided check notwithstanding", () => {
    for (const offset of [301, -301, 3600, -3600])
      expect(verify(header(now + offset)), String(offset)).toThrow(StripeSignatureError);
  });

  it("is refused with another secret, altered bytes, no time or a time that is no number", () => {
    expect(verify(header(now, "whsec_another"))).toThrow(StripeSignatureError);
    expect(() => verifyStripeSignature(Buffer.from(`${body} `), header(now), SECRET, NOW_MS)).toThrow(
      StripeSignatureError,
    );
    const v1 = (signed: string) => createHmac("sha256", SECRET).update(`${signed}.${body}`).digest("hex");
    expect(verify(`v1=${v1(String(now))}`)).toThrow(StripeSignatureError);
    // The stripe package signs "NaN.<body>" for `t=later` and never checks its age.
    expect(verify(`t=later,v1=${v1("NaN")}`)).toThrow(StripeSignatureError);
  });

  it("is accepted when any of its v1 signatures matches (a secret being rolled)", () => {
    const good = header(now).split(",v1=")[1];
    expect(verify(`t=${now},v1=${"0".repeat(64)},v1=${good}`)).not.toThrow();
  });
});

describe("a signed body", () => {
  it("is read as JSON, or undefined when it is none", () => {
    expect(signedJson(Buffer.from("null"))).toBeNull();
    expect(signedJson(Buffer.from('{"a":1}'))).toEqual({ a: 1 });
    expect(signedJson(Buffer.from("{not json"))).toBeUndefined();
  });
});
