import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { AuthLayout } from "@/components/layout/auth-layout";
import { BrandMark } from "@/components/layout/brand-logo";
import { AUTH_PAGE_DESCRIPTION, AUTH_PAGE_TITLE } from "@/features/auth/auth-page";
import authHtml from "../auth.html?raw";
import indexHtml from "../index.html?raw";

const root = (html: string) => html.match(/<div id="root">(.*)<\/div>\n/)?.[1] ?? "";

/** The HTML pages paint a static shell before their script runs: it must look like what replaces it. */
describe("static shells", () => {
  it("auth.html draws the sign-in card exactly as the page renders it, without the form", () => {
    const card = renderToStaticMarkup(
      <AuthLayout title={AUTH_PAGE_TITLE} description={AUTH_PAGE_DESCRIPTION}>
        {null}
      </AuthLayout>,
    );
    expect(root(authHtml)).toBe(card);
  });

  it("index.html draws the card frame and the logo, announced as loading", () => {
    const shell = root(indexHtml);
    expect(shell).toContain(renderToStaticMarkup(<BrandMark className="size-11" />));
    const card = renderToStaticMarkup(<AuthLayout title="">{null}</AuthLayout>).match(
      /<div data-slot="card" class="([^"]+)"/,
    )?.[1];
    expect(shell).toContain(`<div data-slot="card" role="status" class="${card}"`);
    expect(shell).toContain('<span class="sr-only">Loading</span>');
  });
});
