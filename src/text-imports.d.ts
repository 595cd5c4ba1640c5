// Files imported as text are embedded in the compiled binary.
declare module "*.sql" {
  const text: string;
  export default text;
}

// Docs UI assets, embedded as files (Bun gives their path, inside the binary when compiled).
declare module "swagger-ui-dist/swagger-ui-bundle.js" {
  const path: string;
  export default path;
}
declare module "swagger-ui-dist/swagger-ui.css" {
  const path: string;
  export default path;
}

// The web app's chart library, embedded the same way.
declare module "uplot/dist/uPlot.iife.min.js" {
  const path: string;
  export default path;
}
declare module "uplot/dist/uPlot.min.css" {
  const path: string;
  export default path;
}
