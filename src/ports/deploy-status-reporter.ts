/** A deployment or commit status state, as GitHub names them. */
export type StatusState = "success" | "failure" | "error";

/** The commit status context Bosun posts; branch protection or later jobs can require it. */
export const DEPLOY_VERIFIED_CONTEXT = "bosun/deploy-verified";

/** The commit status context that says, when landing could not examine every deployed commit, how many it did not. */
export const DEPLOY_LANDING_CONTEXT = "bosun/deploy-landing";

/** Where the verify mode reports its verdict, declared here by its consumer (the verify mode). */
export interface DeployStatusReporter {
  /** Adds a status to an existing deployment. */
  createDeploymentStatus(input: {
    readonly deploymentId: number;
    readonly state: StatusState;
    readonly description: string;
    readonly logUrl: string;
    readonly environmentUrl?: string;
  }): Promise<void>;
  /** Sets a commit status (one per context) on the deployed commit. */
  createCommitStatus(input: {
    readonly sha: string;
    readonly state: StatusState;
    readonly context: string;
    readonly description: string;
    readonly targetUrl: string;
  }): Promise<void>;
}
