/** The whole route table of the fake: the REST routes, then `POST /graphql`. */
import type { Route } from "./route.js";
import { actionRoutes } from "./routes/actions.js";
import { activityRoutes } from "./routes/activity.js";
import { appRoutes } from "./routes/app.js";
import { branchProtectionRoutes } from "./routes/branch-protection.js";
import { checkRoutes } from "./routes/checks.js";
import { commentRoutes } from "./routes/comments.js";
import { compareRoutes } from "./routes/compare.js";
import { contentRoutes } from "./routes/contents.js";
import { deploymentRoutes } from "./routes/deployments.js";
import { environmentRoutes } from "./routes/environments.js";
import { gitCommitRoutes } from "./routes/git-commits.js";
import { gitRefRoutes } from "./routes/git-refs.js";
import { gitTreeRoutes } from "./routes/git-trees.js";
import { graphqlRoutes } from "./routes/graphql.js";
import { issueRoutes } from "./routes/issues.js";
import { labelRoutes } from "./routes/labels.js";
import { pullUpdateRoutes } from "./routes/pull-updates.js";
import { mergeRoutes } from "./routes/merge.js";
import { pullRoutes } from "./routes/pulls.js";
import { repoRoutes } from "./routes/repos.js";
import { rulesetRoutes } from "./routes/rulesets.js";
import { statusRoutes } from "./routes/statuses.js";

/** The routes GitHub's REST OpenAPI description covers (and the trimmed spec is cut to). */
export const restRoutes: readonly Route[] = [
  ...issueRoutes,
  ...labelRoutes,
  ...commentRoutes,
  ...gitRefRoutes,
  ...gitCommitRoutes,
  ...gitTreeRoutes,
  ...compareRoutes,
  ...contentRoutes,
  ...repoRoutes,
  ...activityRoutes,
  ...pullRoutes,
  ...pullUpdateRoutes,
  ...mergeRoutes,
  ...checkRoutes,
  ...statusRoutes,
  ...deploymentRoutes,
  ...actionRoutes,
  ...appRoutes,
  ...branchProtectionRoutes,
  ...rulesetRoutes,
  ...environmentRoutes,
];

/** Every route the fake serves: REST, and `POST /graphql`, which the REST description does not cover. */
export const allRoutes: readonly Route[] = [...restRoutes, ...graphqlRoutes];
