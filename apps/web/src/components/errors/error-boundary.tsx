import { Component, type ErrorInfo, type ReactNode } from "react";
import { ErrorScreen } from "./error-screen";

interface Props {
  children: ReactNode;
  /** What to render instead of the children after an error (default: the generic error screen). */
  fallback?: (error: unknown) => ReactNode;
}

/** The top-level error boundary: any render error outside the router shows the error screen. */
export class ErrorBoundary extends Component<Props, { error: unknown; hasError: boolean }> {
  override state = { error: null as unknown, hasError: false };

  static getDerivedStateFromError(error: unknown) {
    return { error, hasError: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error("Unhandled error", error, info.componentStack);
  }

  override render() {
    if (this.state.hasError) {
      return this.props.fallback?.(this.state.error) ?? <ErrorScreen error={this.state.error} />;
    }
    return this.props.children;
  }
}
