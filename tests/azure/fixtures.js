#!/usr/bin/env node
// Loopback helpers for the Azure suite, started by the C++ tests (tests/azure/harness.cpp):
//
//   node fixtures.js token-server <cert> <key>
//     An HTTPS stand-in for both GitHub's OIDC request URL (GET /oidc) and Entra ID's token
//     endpoint (POST /<tenant>/oauth2/v2.0/token), plus an App Service style managed
//     identity endpoint (GET /msi). Mints unsigned JWTs that Azurite's `--oauth basic` accepts
//     (iss https://sts.windows.net/<tenant>/, aud https://storage.azure.com, nbf/iat/exp).
//
//   node fixtures.js fault-proxy <cert> <key> <upstream-port>
//     A TLS-terminating proxy in front of Azurite that, for a configurable share of requests,
//     drops the connection before forwarding, drops it after forwarding (the write happened but
//     the answer is lost), delays, or answers 503 + Retry-After. It counts, per blob path, how
//     many uploads Azurite answered 201 so tests can prove nothing was written twice.
//
// Both print `PORT <n>` on stdout once listening on 127.0.0.1, and take their settings at
// run time: POST /__control/config (JSON merged into the settings), GET /__control/stats.
'use strict';
const fs = require('fs');
const https = require('https');

const [mode, certPath, keyPath, upstreamPort] = process.argv.slice(2);
const cert = fs.readFileSync(certPath);
const key = fs.readFileSync(keyPath);

function readBody(req) {
  return new Promise((resolve) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', () => resolve(Buffer.concat(chunks)));
  });
}

function sendJson(res, status, obj, headers = {}) {
  const body = JSON.stringify(obj);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

function b64url(obj) {
  return Buffer.from(JSON.stringify(obj)).toString('base64url');
}

function control(req, res, body, settings, stats, reset) {
  if (req.url.startsWith('/__control/config') && req.method === 'POST') {
    Object.assign(settings, JSON.parse(body.toString() || '{}'));
    sendJson(res, 200, settings);
  } else if (req.url.startsWith('/__control/stats')) {
    sendJson(res, 200, stats);
  } else if (req.url.startsWith('/__control/reset')) {
    reset();
    sendJson(res, 200, stats);
  } else {
    sendJson(res, 404, { error: 'unknown control path' });
  }
}

function listen(server) {
  server.keepAliveTimeout = 30000;
  server.listen(0, '127.0.0.1', () => {
    process.stdout.write(`PORT ${server.address().port}\n`);
  });
}

function tokenServer() {
  const settings = {
    request_token: 'test-request-token',
    client_id: 'test-client-id',
    identity_header: 'test-identity-header',
    lifetime: 3600,        // expires_in reported to the client, seconds
    jwt_lifetime: null,    // real exp of the minted JWT (default: lifetime)
    fail_oidc: 0,          // answer the next N OIDC requests with 503
    fail_exchange: 0,      // answer the next N exchanges with 503
    reject_exchange: false, // answer exchanges with 401 invalid_client
    aud: 'https://storage.azure.com' // audience of minted tokens (a wrong one makes Azurite answer 401)
  };
  let stats;
  const reset = () => { stats = { oidc: 0, exchange: 0, msi: 0, last_scope: null, last_audience: null }; };
  reset();
  let serial = 0;
  const mint = (tenant) => {
    const now = Math.floor(Date.now() / 1000);
    const life = settings.jwt_lifetime ?? settings.lifetime;
    serial += 1;
    return [b64url({ alg: 'RS256', typ: 'JWT' }),
            b64url({ iss: `https://sts.windows.net/${tenant}/`, aud: settings.aud,
                     sub: 'test', nbf: now - 60, iat: now - 60, exp: now + life, serial }),
            'c2lnbmF0dXJl'].join('.');
  };
  const server = https.createServer({ cert, key }, async (req, res) => {
    const body = await readBody(req);
    const url = new URL(req.url, 'https://127.0.0.1');
    if (url.pathname.startsWith('/__control/')) return control(req, res, body, settings, stats, reset);
    if (req.method === 'GET' && url.pathname === '/oidc') {
      stats.oidc += 1;
      stats.last_audience = url.searchParams.get('audience');
      if (settings.fail_oidc > 0) { settings.fail_oidc -= 1; return sendJson(res, 503, { message: 'busy' }, { 'Retry-After': '0' }); }
      if (req.headers.authorization !== `Bearer ${settings.request_token}`) return sendJson(res, 401, { message: 'bad request token' });
      if (stats.last_audience !== 'api://AzureADTokenExchange') return sendJson(res, 400, { message: 'bad audience' });
      return sendJson(res, 200, { count: 1, value: 'github-id-token-' + serial });
    }
    const m = url.pathname.match(/^\/([^/]+)\/oauth2\/v2\.0\/token$/);
    if (req.method === 'POST' && m) {
      stats.exchange += 1;
      const form = new URLSearchParams(body.toString());
      stats.last_scope = form.get('scope');
      if (settings.fail_exchange > 0) { settings.fail_exchange -= 1; return sendJson(res, 503, { error: 'temporarily_unavailable' }); }
      if (settings.reject_exchange) return sendJson(res, 401, { error: 'invalid_client', error_description: 'AADSTS700016: Application not found.\r\nTrace ID: x' });
      if (form.get('grant_type') !== 'client_credentials' ||
          form.get('client_assertion_type') !== 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer' ||
          !form.get('client_assertion') || form.get('client_id') !== settings.client_id)
        return sendJson(res, 400, { error: 'invalid_request', error_description: 'malformed exchange' });
      return sendJson(res, 200, { token_type: 'Bearer', expires_in: settings.lifetime, access_token: mint(m[1]) });
    }
    if (req.method === 'GET' && url.pathname === '/msi') {
      stats.msi += 1;
      if (req.headers['x-identity-header'] !== settings.identity_header) return sendJson(res, 401, { error: 'bad header' });
      const now = Math.floor(Date.now() / 1000);
      return sendJson(res, 200, { access_token: mint('msi-tenant'), expires_on: String(now + settings.lifetime),
                                  resource: url.searchParams.get('resource'), token_type: 'Bearer' });
    }
    sendJson(res, 404, { error: 'not found' });
  });
  listen(server);
}

function faultProxy() {
  const settings = { drop_before: 0, drop_after: 0, busy: 0, delay: 0, delay_ms: 200, retry_after: '1', seed: 1,
                     refuse_container_create: false };
  let stats, rng;
  const reset = () => {
    stats = { requests: 0, forwarded: 0, dropped_before: 0, dropped_after: 0, busy: 0, delayed: 0, created: {} };
    rng = settings.seed >>> 0 || 1;
  };
  reset();
  // Deterministic xorshift so a failing run can be replayed with the same seed.
  const random = () => { rng ^= rng << 13; rng >>>= 0; rng ^= rng >>> 17; rng ^= rng << 5; rng >>>= 0; return rng / 4294967296; };
  const agent = new https.Agent({ keepAlive: true, maxSockets: 64, ca: cert });
  const forward = (req, body) => new Promise((resolve, reject) => {
    const headers = { ...req.headers };
    delete headers.connection;
    const up = https.request({ host: '127.0.0.1', port: Number(upstreamPort), method: req.method, path: req.url,
                               headers, agent, servername: undefined }, (ur) => {
      readBody(ur).then((b) => resolve({ status: ur.statusCode, headers: ur.headers, body: b }));
    });
    up.on('error', reject);
    up.end(body);
  });
  const server = https.createServer({ cert, key }, async (req, res) => {
    const body = await readBody(req);
    if (req.url.startsWith('/__control/')) return control(req, res, body, settings, stats, reset);
    stats.requests += 1;
    // An identity that may write blobs but not create containers: Azure's answer to it.
    if (settings.refuse_container_create && req.method === 'PUT' && req.url.includes('restype=container'))
      return sendJson(res, 403, { code: 'AuthorizationPermissionMismatch' }, { 'x-ms-error-code': 'AuthorizationPermissionMismatch' });
    const roll = random();
    let edge = settings.drop_before;
    if (roll < edge) { stats.dropped_before += 1; return req.socket.destroy(); }
    edge += settings.busy;
    if (roll < edge) {
      stats.busy += 1;
      return sendJson(res, 503, { code: 'ServerBusy' }, { 'Retry-After': String(settings.retry_after), 'x-ms-error-code': 'ServerBusy' });
    }
    edge += settings.delay;
    if (roll < edge) { stats.delayed += 1; await new Promise((r) => setTimeout(r, settings.delay_ms)); }
    const dropAfter = random() < settings.drop_after;
    let upstream;
    try { upstream = await forward(req, body); } catch (e) { return sendJson(res, 502, { error: String(e) }); }
    stats.forwarded += 1;
    if (req.method === 'PUT' && upstream.status === 201) {
      const path = req.url.split('?')[0];
      stats.created[path] = (stats.created[path] || 0) + 1;
    }
    if (dropAfter) { stats.dropped_after += 1; return req.socket.destroy(); }
    if (res.socket === null || res.socket.destroyed) return;
    const headers = { ...upstream.headers };
    delete headers.connection;
    delete headers['keep-alive'];
    delete headers['transfer-encoding'];
    headers['content-length'] = upstream.body.length;
    res.writeHead(upstream.status, headers);
    res.end(upstream.body);
  });
  listen(server);
}

if (mode === 'token-server') tokenServer();
else if (mode === 'fault-proxy') faultProxy();
else { console.error('usage: fixtures.js token-server|fault-proxy <cert> <key> [upstream-port]'); process.exit(2); }
