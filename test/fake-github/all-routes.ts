/** The whole route table of the fake, in one list. */
import type { Route } from "./route.js";
import { actionRoutes } from "./routes/actions.js";
import { appRoutes } from "./routes/app.js";
import { checkRoutes } from "./routes/checks.js";
import { commentRoutes } from "./routes/comments.js";
import { compareRoutes } from "./routes/compare.js";
import { contentRoutes } from "./routes/contents.js";
import { deploymentRoutes } from "./routes/deployments.js";
import { gitCommitRoutes } from "./routes/git-commits.js";
import { gitRefRoutes } from "./routes/git-refs.js";
import { issueRoutes } from "./routes/issues.js";
import { labelRoutes } from "./routes/labels.js";
import { pullRoutes } from "./routes/pulls.js";
import { repoRoutes } from "./routes/repos.js";
import { statusRoutes } from "./routes/statuses.js";

export const allRoutes: readonly Route[] = [
  ...issueRoutes,
  ...labelRoutes,
  ...commentRoutes,
  ...gitRefRoutes,
  ...gitCommitRoutes,
  ...compareRoutes,
  ...contentRoutes,
  ...repoRoutes,
  ...pullRoutes,
  ...checkRoutes,
  ...statusRoutes,
  ...deploymentRoutes,
  ...actionRoutes,
  ...appRoutes,
];
