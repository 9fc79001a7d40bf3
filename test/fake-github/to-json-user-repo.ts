/** GitHub's JSON shapes for users and repositories, built from state. */
import { isoTime } from "./clock.js";
import { ensureUser, type FakeState, type RepoState } from "./state.js";

/** The `node_id` GitHub would give an object: opaque, but stable for a type and id. */
export function nodeId(type: string, id: number): string {
  return Buffer.from(`${type}:${id}`).toString("base64").replace(/=+$/, "");
}

/** `simple-user` for a login (users are created on first sight). */
export function userJson(state: FakeState, login: string): Record<string, unknown> {
  const user = ensureUser(state, login);
  const url = `${state.baseUrl}/users/${encodeURIComponent(login)}`;
  return {
    login,
    id: user.id,
    node_id: nodeId(user.type, user.id),
    avatar_url: `${state.baseUrl}/avatars/${user.id}`,
    gravatar_id: "",
    url,
    html_url: `${state.baseUrl}/${encodeURIComponent(login)}`,
    followers_url: `${url}/followers`,
    following_url: `${url}/following{/other_user}`,
    gists_url: `${url}/gists{/gist_id}`,
    starred_url: `${url}/starred{/owner}{/repo}`,
    subscriptions_url: `${url}/subscriptions`,
    organizations_url: `${url}/orgs`,
    repos_url: `${url}/repos`,
    events_url: `${url}/events{/privacy}`,
    received_events_url: `${url}/received_events`,
    type: user.type,
    user_view_type: "public",
    site_admin: false,
  };
}

/** API url of a repository, e.g. `http://127.0.0.1:4000/repos/acme/app`. */
export function repoUrl(state: FakeState, repo: RepoState): string {
  return `${state.baseUrl}/repos/${repo.owner}/${repo.name}`;
}

/** Web url of a repository (the fake serves no HTML; the shape is what matters). */
export function repoHtmlUrl(state: FakeState, repo: RepoState): string {
  return `${state.baseUrl}/${repo.owner}/${repo.name}`;
}

const TEMPLATED_URLS: Record<string, string> = {
  archive_url: "/{archive_format}{/ref}",
  assignees_url: "/assignees{/user}",
  blobs_url: "/git/blobs{/sha}",
  branches_url: "/branches{/branch}",
  collaborators_url: "/collaborators{/collaborator}",
  comments_url: "/comments{/number}",
  commits_url: "/commits{/sha}",
  compare_url: "/compare/{base}...{head}",
  contents_url: "/contents/{+path}",
  contributors_url: "/contributors",
  deployments_url: "/deployments",
  downloads_url: "/downloads",
  events_url: "/events",
  forks_url: "/forks",
  git_commits_url: "/git/commits{/sha}",
  git_refs_url: "/git/refs{/sha}",
  git_tags_url: "/git/tags{/sha}",
  hooks_url: "/hooks",
  issue_comment_url: "/issues/comments{/number}",
  issue_events_url: "/issues/events{/number}",
  issues_url: "/issues{/number}",
  keys_url: "/keys{/key_id}",
  labels_url: "/labels{/name}",
  languages_url: "/languages",
  merges_url: "/merges",
  milestones_url: "/milestones{/number}",
  notifications_url: "/notifications{?since,all,participating}",
  pulls_url: "/pulls{/number}",
  releases_url: "/releases{/id}",
  stargazers_url: "/stargazers",
  statuses_url: "/statuses/{sha}",
  subscribers_url: "/subscribers",
  subscription_url: "/subscription",
  tags_url: "/tags",
  teams_url: "/teams",
  trees_url: "/git/trees{/sha}",
};

/** `full-repository` (also valid as `repository` and `minimal-repository`). */
export function repoJson(state: FakeState, repo: RepoState): Record<string, unknown> {
  const url = repoUrl(state, repo);
  const html = repoHtmlUrl(state, repo);
  const urls = Object.fromEntries(Object.entries(TEMPLATED_URLS).map(([k, suffix]) => [k, url + suffix]));
  const openIssues = [...repo.issues.values()].filter((i) => i.state === "open").length;
  const created = isoTime(repo.createdAt);
  return {
    id: repo.id,
    node_id: nodeId("Repository", repo.id),
    name: repo.name,
    full_name: `${repo.owner}/${repo.name}`,
    owner: userJson(state, repo.owner),
    private: repo.private,
    html_url: html,
    description: null,
    fork: false,
    url,
    ...urls,
    clone_url: `${html}.git`,
    git_url: `${html.replace(/^http/, "git")}.git`,
    ssh_url: `git@127.0.0.1:${repo.owner}/${repo.name}.git`,
    svn_url: html,
    mirror_url: null,
    homepage: null,
    language: "TypeScript",
    forks: 0,
    forks_count: 0,
    stargazers_count: 0,
    watchers: 0,
    watchers_count: 0,
    size: 0,
    default_branch: repo.defaultBranch,
    open_issues: openIssues,
    open_issues_count: openIssues,
    is_template: false,
    topics: [],
    has_issues: true,
    has_projects: false,
    has_wiki: false,
    has_pages: false,
    has_downloads: false,
    has_discussions: false,
    archived: false,
    disabled: false,
    visibility: repo.private ? "private" : "public",
    pushed_at: created,
    created_at: created,
    updated_at: created,
    license: null,
    network_count: 0,
    subscribers_count: 0,
  };
}
