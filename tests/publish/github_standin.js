#!/usr/bin/env node
// A loopback HTTPS stand-in for the parts of the GitHub REST API (2022-11-28) that
// `cargo bench-history publish` uses, started by tests/publish/standin.cpp:
//
//   node github_standin.js <cert> <key> <token>
//
// It speaks GitHub's protocol as documented: `Authorization: Bearer <token>` (401 "Bad
// credentials" otherwise), a required User-Agent (403 otherwise), the issues endpoints listing
// pull requests too (items with a `pull_request` member), page-based pagination with
// `per_page` (default 30, maximum 100) and RFC 8288 Link headers whose URLs use the
// `/repositories/<id>/…` form like github.com, 404 {"message": "Not Found"} for unknown
// repositories, issues and comments, and 422 "Validation Failed" for a body over 65,536
// characters or a missing title. Everything lives in memory.
//
// Test control (no authentication), all JSON:
//   POST /__control/config  {token, owner, repo, read_only, history}  merged into the settings;
//        `history` lists the branch's commit ids oldest first, for the compare endpoint
//   POST /__control/reset                                          empty repository, the initial token, no faults, no log
//   POST /__control/seed    {issues: [{title, body, state, pull_request}], comments: [{issue, body}]}
//   POST /__control/faults  {rules: [{method, path, count, status, retry_after, headers, hang}]}
//        the next `count` requests whose method matches (if given) and whose path starts with
//        `path` get `status` (with Retry-After and any other `headers`, e.g. GitHub's
//        x-ratelimit-remaining / x-ratelimit-reset) or, with `hang`, no answer at all
//   GET  /__control/state   {issues: [...], comments: [...]} with per-item edit counts
//   GET  /__control/requests  every API request so far: {method, url, headers, body}
// Prints `PORT <n>` on stdout once listening on 127.0.0.1.
'use strict';
const fs = require('fs');
const https = require('https');

const [certPath, keyPath, initialToken] = process.argv.slice(2);
const REPO_ID = 4242;
const LIMIT = 65536;

let settings, issues, comments, nextIssue, nextComment, rules, log;
function reset() {
  settings = { token: initialToken || 'test-token', owner: 'octo-org', repo: 'octo-repo', read_only: false, history: [] };
  issues = [];     // {number, title, body, state, pull_request, edits}
  comments = [];   // {id, issue, body, edits}
  nextIssue = 1;
  nextComment = 1000;
  rules = [];
  log = [];
}
reset();

function readBody(req) {
  return new Promise((resolve) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

function send(res, status, obj, headers = {}) {
  const body = obj === undefined ? '' : JSON.stringify(obj);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'X-GitHub-Media-Type': 'github.v3; format=json',
    ...headers,
  });
  res.end(body);
}

const DOCS = 'https://docs.github.com/rest';
const notFound = (res) => send(res, 404, { message: 'Not Found', documentation_url: DOCS, status: '404' });

function origin(req) {
  return `https://${req.headers.host}`;
}

function issueJson(req, i) {
  const o = {
    url: `${origin(req)}/repos/${settings.owner}/${settings.repo}/issues/${i.number}`,
    html_url: `https://github.test/${settings.owner}/${settings.repo}/${i.pull_request ? 'pull' : 'issues'}/${i.number}`,
    id: 900000 + i.number,
    number: i.number,
    title: i.title,
    user: { login: 'github-actions[bot]', type: 'Bot' },
    labels: [],
    state: i.state,
    locked: false,
    comments: comments.filter((c) => c.issue === i.number).length,
    body: i.body === '' ? null : i.body,
  };
  if (i.pull_request) o.pull_request = { url: `${origin(req)}/repos/${settings.owner}/${settings.repo}/pulls/${i.number}` };
  return o;
}

function commentJson(req, c) {
  return {
    url: `${origin(req)}/repos/${settings.owner}/${settings.repo}/issues/comments/${c.id}`,
    html_url: `https://github.test/${settings.owner}/${settings.repo}/issues/${c.issue}#issuecomment-${c.id}`,
    issue_url: `${origin(req)}/repos/${settings.owner}/${settings.repo}/issues/${c.issue}`,
    id: c.id,
    user: { login: 'github-actions[bot]', type: 'Bot' },
    body: c.body,
  };
}

// page-based pagination with GitHub's Link header (/repositories/<id>/… form)
function paginate(req, res, url, items, linkPath) {
  let perPage = parseInt(url.searchParams.get('per_page') || '30', 10);
  if (!(perPage > 0)) perPage = 30;
  perPage = Math.min(perPage, 100);
  let page = parseInt(url.searchParams.get('page') || '1', 10);
  if (!(page > 0)) page = 1;
  const last = Math.max(1, Math.ceil(items.length / perPage));
  const slice = items.slice((page - 1) * perPage, page * perPage);
  const links = [];
  const link = (p, rel) => {
    const q = new URLSearchParams(url.searchParams);
    q.set('page', String(p));
    links.push(`<${origin(req)}${linkPath}?${q.toString()}>; rel="${rel}"`);
  };
  if (page > 1) link(page - 1, 'prev');
  if (page < last) link(page + 1, 'next');
  if (page < last) link(last, 'last');
  if (page > 1) link(1, 'first');
  send(res, 200, slice, links.length ? { Link: links.join(', ') } : {});
}

function validationFailed(res, resource, field, message) {
  send(res, 422, {
    message: 'Validation Failed',
    errors: [{ resource, code: 'custom', field, message }],
    documentation_url: DOCS,
    status: '422',
  });
}

function parseJson(res, text) {
  try {
    const v = JSON.parse(text);
    if (v && typeof v === 'object') return v;
  } catch (e) { /* fall through */ }
  send(res, 400, { message: 'Problems parsing JSON', documentation_url: DOCS, status: '400' });
  return null;
}

function api(req, res, body) {
  const url = new URL(req.url, 'https://127.0.0.1');
  let path = url.pathname;
  log.push({ method: req.method, url: req.url, headers: req.headers, body });

  for (const rule of rules) {
    if (rule.count <= 0) continue;
    if (rule.method && rule.method !== req.method) continue;
    if (rule.path && !path.startsWith(rule.path)) continue;
    rule.count -= 1;
    if (rule.hang) return;  // never answer; the client's timeout must fire
    const headers = { ...(rule.headers || {}) };
    if (rule.retry_after !== undefined) headers['Retry-After'] = String(rule.retry_after);
    const message = rule.status === 403 || rule.status === 429 ? 'API rate limit exceeded (injected)' : 'Server Error (injected)';
    return send(res, rule.status || 502, { message }, headers);
  }

  if (!req.headers['user-agent'])
    return send(res, 403, { message: 'Request forbidden by administrative rules. Please make sure your request has a User-Agent header', documentation_url: DOCS, status: '403' });
  const auth = req.headers.authorization || '';
  if (auth !== `Bearer ${settings.token}` && auth !== `token ${settings.token}`)
    return send(res, 401, { message: 'Bad credentials', documentation_url: DOCS, status: '401' });

  const repoPrefix = `/repos/${settings.owner}/${settings.repo}`;
  const idPrefix = `/repositories/${REPO_ID}`;
  let rest;
  if (path.startsWith(repoPrefix + '/') || path === repoPrefix) rest = path.slice(repoPrefix.length);
  else if (path.startsWith(idPrefix + '/')) rest = path.slice(idPrefix.length);
  else return notFound(res);

  const write = req.method !== 'GET';
  if (write && settings.read_only)
    return send(res, 403, { message: 'Resource not accessible by integration', documentation_url: DOCS, status: '403' });

  let m;
  // GET /compare/{base}...{head}: ids (or prefixes of 7+) of the configured first-parent history.
  if ((m = rest.match(/^\/compare\/([0-9a-fA-F]+)\.\.\.([0-9a-fA-F]+)$/)) && req.method === 'GET') {
    const at = (id) => settings.history.findIndex((c) => id.length >= 7 && c.startsWith(id.toLowerCase()));
    const base = at(m[1]), head = at(m[2]);
    if (base < 0 || head < 0) return notFound(res);
    const status = head === base ? 'identical' : head > base ? 'ahead' : 'behind';
    return send(res, 200, { status, ahead_by: Math.max(0, head - base), behind_by: Math.max(0, base - head), total_commits: Math.max(0, head - base) });
  }
  if ((m = rest.match(/^\/issues\/(\d+)$/)) && req.method === 'GET') {
    const issue = issues.find((i) => i.number === Number(m[1]));
    if (!issue) return notFound(res);
    return send(res, 200, issueJson(req, issue));
  }
  if (rest === '/issues' && req.method === 'GET') {
    const state = url.searchParams.get('state') || 'open';
    const list = issues.filter((i) => state === 'all' || i.state === state).sort((a, b) => b.number - a.number);
    return paginate(req, res, url, list.map((i) => issueJson(req, i)), `${idPrefix}/issues`);
  }
  if (rest === '/issues' && req.method === 'POST') {
    const doc = parseJson(res, body);
    if (!doc) return;
    if (typeof doc.title !== 'string' || doc.title === '') return validationFailed(res, 'Issue', 'title', 'title is missing');
    if (typeof doc.body === 'string' && doc.body.length > LIMIT)
      return validationFailed(res, 'Issue', 'body', `body is too long (maximum is ${LIMIT} characters)`);
    const issue = { number: nextIssue++, title: doc.title, body: doc.body || '', state: 'open', pull_request: false, edits: 0 };
    issues.push(issue);
    return send(res, 201, issueJson(req, issue), { Location: `${origin(req)}${repoPrefix}/issues/${issue.number}` });
  }
  if ((m = rest.match(/^\/issues\/(\d+)$/)) && req.method === 'PATCH') {
    const issue = issues.find((i) => i.number === Number(m[1]));
    if (!issue) return notFound(res);
    const doc = parseJson(res, body);
    if (!doc) return;
    if (typeof doc.body === 'string' && doc.body.length > LIMIT)
      return validationFailed(res, 'Issue', 'body', `body is too long (maximum is ${LIMIT} characters)`);
    if (typeof doc.body === 'string') issue.body = doc.body;
    if (typeof doc.title === 'string') issue.title = doc.title;
    if (doc.state === 'open' || doc.state === 'closed') issue.state = doc.state;
    issue.edits += 1;
    return send(res, 200, issueJson(req, issue));
  }
  if ((m = rest.match(/^\/issues\/(\d+)\/comments$/))) {
    const issue = issues.find((i) => i.number === Number(m[1]));
    if (!issue) return notFound(res);
    if (req.method === 'GET') {
      const list = comments.filter((c) => c.issue === issue.number).sort((a, b) => a.id - b.id);
      return paginate(req, res, url, list.map((c) => commentJson(req, c)), `${idPrefix}/issues/${issue.number}/comments`);
    }
    if (req.method === 'POST') {
      const doc = parseJson(res, body);
      if (!doc) return;
      if (typeof doc.body !== 'string' || doc.body === '') return validationFailed(res, 'IssueComment', 'body', 'body is missing');
      if (doc.body.length > LIMIT)
        return validationFailed(res, 'IssueComment', 'body', `body is too long (maximum is ${LIMIT} characters)`);
      const c = { id: nextComment++, issue: issue.number, body: doc.body, edits: 0 };
      comments.push(c);
      return send(res, 201, commentJson(req, c));
    }
  }
  if ((m = rest.match(/^\/issues\/comments\/(\d+)$/)) && req.method === 'PATCH') {
    const c = comments.find((x) => x.id === Number(m[1]));
    if (!c) return notFound(res);
    const doc = parseJson(res, body);
    if (!doc) return;
    if (typeof doc.body !== 'string' || doc.body === '') return validationFailed(res, 'IssueComment', 'body', 'body is missing');
    if (doc.body.length > LIMIT)
      return validationFailed(res, 'IssueComment', 'body', `body is too long (maximum is ${LIMIT} characters)`);
    c.body = doc.body;
    c.edits += 1;
    return send(res, 200, commentJson(req, c));
  }
  return notFound(res);
}

function control(req, res, body) {
  const path = req.url.split('?')[0];
  const doc = body ? JSON.parse(body) : {};
  if (path === '/__control/config' && req.method === 'POST') {
    Object.assign(settings, doc);
    return send(res, 200, settings);
  }
  if (path === '/__control/reset' && req.method === 'POST') {
    reset();
    return send(res, 200, {});
  }
  if (path === '/__control/seed' && req.method === 'POST') {
    const made = { issues: [], comments: [] };
    for (const i of doc.issues || []) {
      const issue = { number: nextIssue++, title: i.title, body: i.body || '', state: i.state || 'open', pull_request: !!i.pull_request, edits: 0 };
      issues.push(issue);
      made.issues.push(issue.number);
    }
    for (const c of doc.comments || []) {
      const comment = { id: nextComment++, issue: c.issue, body: c.body, edits: 0 };
      comments.push(comment);
      made.comments.push(comment.id);
    }
    return send(res, 200, made);
  }
  if (path === '/__control/faults' && req.method === 'POST') {
    rules = (doc.rules || []).map((r) => ({ ...r }));
    return send(res, 200, { rules });
  }
  if (path === '/__control/state') return send(res, 200, { issues, comments });
  if (path === '/__control/requests') return send(res, 200, log);
  return send(res, 404, { message: 'unknown control path' });
}

const server = https.createServer({ cert: fs.readFileSync(certPath), key: fs.readFileSync(keyPath) }, async (req, res) => {
  const body = await readBody(req);
  if (req.url.startsWith('/__control/')) return control(req, res, body);
  return api(req, res, body);
});
server.keepAliveTimeout = 30000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`PORT ${server.address().port}\n`));
