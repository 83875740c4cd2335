// sigv4.js: AWS Signature Version 4 for the console's calls, with the
// browser's WebCrypto (no library). With `dynarock serve --auth-file` the
// server verifies every call's signature (api/http/sigv4.h); without it,
// only the credential scope is read, to pick the caller's tables.
'use strict';

const SigV4 = (() => {
  const enc = new TextEncoder();

  function hex(buffer) {
    return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, '0')).join('');
  }

  async function sha256Hex(text) {
    return hex(await crypto.subtle.digest('SHA-256', enc.encode(text)));
  }

  async function hmac(key, text) {
    const k = await crypto.subtle.importKey('raw', typeof key === 'string' ? enc.encode(key) : key,
      { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    return crypto.subtle.sign('HMAC', k, enc.encode(text));
  }

  // "20261201T120000Z" for a Date.
  function amzDate(date) {
    return date.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
  }

  // The headers to send with a POST of `body` to `path` on this page's host,
  // signed with { accessKey, secretKey, region } (service "dynamodb").
  // Without a secret key (or WebCrypto, on a page that is not a secure
  // context) the signature is a placeholder: enough for a server that does
  // not verify signatures to know the caller.
  async function sign(path, headers, body, creds) {
    const now = amzDate(new Date());
    const day = now.slice(0, 8);
    const region = creds.region || 'us-east-1';
    const scope = `${day}/${region}/dynamodb/aws4_request`;
    const all = Object.assign({}, headers, { host: location.host, 'x-amz-date': now });
    const names = Object.keys(all).map((n) => n.toLowerCase()).sort();
    const lower = {};
    for (const [n, v] of Object.entries(all)) lower[n.toLowerCase()] = String(v).trim();
    const signedHeaders = names.join(';');
    let signature = '0'.repeat(64);
    if (creds.secretKey && globalThis.crypto && crypto.subtle) {
      const canonical = ['POST', path, '', names.map((n) => `${n}:${lower[n]}\n`).join(''),
        signedHeaders, await sha256Hex(body)].join('\n');
      const toSign = ['AWS4-HMAC-SHA256', now, scope, await sha256Hex(canonical)].join('\n');
      let key = await hmac('AWS4' + creds.secretKey, day);
      key = await hmac(key, region);
      key = await hmac(key, 'dynamodb');
      key = await hmac(key, 'aws4_request');
      signature = hex(await hmac(key, toSign));
    }
    const out = Object.assign({}, headers, { 'X-Amz-Date': now });
    if (creds.accessKey) {
      out.Authorization = `AWS4-HMAC-SHA256 Credential=${creds.accessKey}/${scope}, ` +
        `SignedHeaders=${signedHeaders}, Signature=${signature}`;
    }
    return out;
  }

  return { sign };
})();
