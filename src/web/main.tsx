import "./index.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { RouterProvider } from "react-router/dom";
import { takeNotice } from "@/app/notice";
import { AppProviders } from "@/app/providers";
import { createAppRouter } from "@/app/router";

const container = document.getElementById("root");
if (!container) throw new Error("index.html has no #root element");
const router = createAppRouter();

createRoot(container).render(
  <StrictMode>
    {/* A notice the sign-in page left for the app ("Login successful"), shown once. */}
    <AppProviders notice={takeNotice()}>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
