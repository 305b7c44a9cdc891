import { Component, type ReactNode } from "react";

/**
 * Around code loaded on demand (a lazy component) that the page can do without: a chunk that fails
 * to load (a dropped connection, a deploy that replaced it) shows `fallback` there, instead of
 * taking the page or the whole app down with it.
 */
export class LoadBoundary extends Component<
  { fallback: ReactNode; children: ReactNode },
  { failed: boolean }
> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
