import { render, screen } from "@testing-library/react";
import { lazy, Suspense } from "react";
import { describe, expect, it, vi } from "vitest";
import { LoadBoundary } from "@/components/load-boundary";

describe("LoadBoundary", () => {
  it("shows its fallback where code loaded on demand fails to load, and leaves the rest of the page", async () => {
    // React reports the caught error on the console; the test is about what the page shows.
    vi.spyOn(console, "error").mockImplementation(() => {});
    const Broken = lazy(() => Promise.reject(new Error("Failed to fetch dynamically imported module")));
    render(
      <main>
        <p>The overview</p>
        <LoadBoundary fallback={<button type="button">Export CSV</button>}>
          <Suspense fallback={<span>Loading</span>}>
            <Broken />
          </Suspense>
        </LoadBoundary>
      </main>,
    );
    expect(await screen.findByRole("button", { name: "Export CSV" })).toBeInTheDocument();
    expect(screen.getByText("The overview")).toBeInTheDocument();
    expect(screen.queryByText("Loading")).not.toBeInTheDocument();
  });

  it("shows what it holds while nothing fails", () => {
    render(
      <LoadBoundary fallback={<span>fallback</span>}>
        <span>content</span>
      </LoadBoundary>,
    );
    expect(screen.getByText("content")).toBeInTheDocument();
    expect(screen.queryByText("fallback")).not.toBeInTheDocument();
  });
});
