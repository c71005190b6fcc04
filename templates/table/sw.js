{% load static %}/* The table pages' service worker (served by tournaments/views/table_app.py at {{ scope }}sw.js,
   so that its scope covers the table pages). It keeps the table's pages and the files they use,
   so that they open without the network: pages are asked of the network first and the kept copy
   is used only when it does not answer (marked, so that the page says it is shown as of the
   time it was kept), and a page never kept is answered with a notice that says so (OFFLINE);
   files are kept by their versioned name. It keeps only
   what the server sent to this phone (a board's cards only once the table may see them),
   forgets it once the server no longer gives it (page(), logout.js), and never keeps an answer
   to a submission: those go through the outbox (outbox.js). */
"use strict";
var CACHE = "botifarra-table-{{ version }}";
var SCOPE = "{{ scope|escapejs }}";
var STATIC = "{{ static_prefix|escapejs }}";
// Shown for a page the phone has not kept, without the network (in the phone's language).
var OFFLINE = "{{ offline|escapejs }}";
var ASSETS = [{% for url in assets %}"{{ url|escapejs }}"{% if not forloop.last %}, {% endif %}{% endfor %}];
// JSON answers computed for one moment (the live score) are not kept.
var NEVER = /\/(preview|legal|submit|boards)\/$|\/sw\.js$/;

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    return cache.addAll(ASSETS.concat([OFFLINE]));
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) {
      return n.indexOf("botifarra-table-") === 0 && n !== CACHE;
    }).map(function (n) { return caches.delete(n); }));
  }).then(function () { return self.clients.claim(); }));
});

// The puts in progress, by address: a page asked for while its copy is being replaced waits
// for the put (Chromium was seen without the kept copy while a put of the same page ran).
var keeping = {};

function address(request) { return request.url.split("#")[0]; }

// Returns the put, so that the event that fetched the page lasts until it is kept. The body
// is read whole first: a put streamed from the network could leave neither copy if the
// connection dropped half-way.
function keep(request, response, asked) {
  if (!(response && response.ok && response.type === "basic" && !response.redirected)) {
    return Promise.resolve();
  }
  var url = address(request);
  var copy = response.clone();
  var put = copy.blob().then(function (body) {
    if (forgottenSince(asked, url)) { return; }
    var whole = new Response(body, {
      status: copy.status, statusText: copy.statusText, headers: copy.headers
    });
    return caches.open(CACHE).then(function (cache) { return cache.put(request, whole); });
  }).catch(function () { /* the copy kept before stays */ }).then(function () {
    if (keeping[url] === put) { delete keeping[url]; }
  });
  keeping[url] = put;
  return put;
}

function keptCopy(request) {
  return Promise.resolve(keeping[address(request)]).then(function () {
    return caches.match(request, {ignoreVary: true});
  });
}

// A kept page says so: the mark on <html> shows its "No network: shown as of HH:MM" line
// (the time it was rendered, in the page). Other kept answers are returned as they are.
function marked(kept) {
  var type = kept.headers.get("Content-Type") || "";
  if (type.indexOf("text/html") !== 0) { return kept; }
  return kept.text().then(function (html) {
    // The mark lengthens the page: the kept length would cut its end off.
    var headers = new Headers(kept.headers);
    headers.delete("Content-Length");
    headers.delete("X-Server-Now");  // the time it was answered: not now (clock.js)
    return new Response(html.replace("<html ", "<html data-from-cache=\"1\" "), {
      status: kept.status, statusText: kept.statusText, headers: headers
    });
  });
}

// The table code a page belongs to: /table/<code>/… ("" for the scope's own pages).
function codeOf(url) {
  var path = new URL(url).pathname;
  if (path.indexOf(SCOPE) !== 0) { return ""; }
  var first = path.slice(SCOPE.length).split("/")[0];
  return first === "offline" || first === "sw.js" ? "" : first;
}

// The forgettings so far, numbered: a page asked of the network before one ran (a logout, new
// codes) and answered after it is not kept, or the forgotten page would come back with it.
var forgettings = [];
var forgotten = 0;

function forgottenSince(asked, url) {
  var code = codeOf(url);
  return forgettings.some(function (f) { return f.number > asked && f.test(code); });
}

// The kept pages whose code passes ``test`` go (the scope's own pages have the code "").
function forgetCodes(test) {
  forgotten += 1;
  forgettings.push({number: forgotten, test: test});
  if (forgettings.length > 100) { forgettings.shift(); }
  return caches.open(CACHE).then(function (cache) {
    return cache.keys().then(function (requests) {
      return Promise.all(requests.filter(function (r) {
        return test(codeOf(r.url));
      }).map(function (r) { return cache.delete(r); }));
    });
  });
}

// What the phone kept of other tables' codes goes once it opens a page with another code: a
// phone passed on must not show, without the network, the cards and scores of the table it
// served before (the server refuses them online).
function forgetOthers(code) {
  return forgetCodes(function (other) { return other && other !== code; });
}

function forgetCode(code) {
  return forgetCodes(function (other) { return other === code; });
}

// The page asks for a table's code again (the code form, /table/?code=…): the phone no longer
// holds it (its session ended, the player logged out), so nothing of it may open offline.
function codeAskedFor(request) {
  var url = new URL(request.url);
  if (request.mode !== "navigate" || url.pathname !== SCOPE) { return ""; }
  return (url.searchParams.get("code") || "").toUpperCase();
}

function page(event) {
  var request = event.request;
  var asked = forgotten;
  return fetch(request).then(function (response) {
    var code = codeOf(request.url);
    var askedFor = codeAskedFor(request);
    if (code && (response.status === 401 || response.status === 403)) {
      // The code opens nothing here now (new codes were given, another table's): none of its
      // kept pages may answer for it offline.
      event.waitUntil(forgetCode(code));
    } else if (response.status === 401 || response.status === 403 || response.status === 404 ||
               response.type === "opaqueredirect") {
      // Refused, gone or sent elsewhere now: its kept copy must not answer for it offline.
      // Kept pages vary on the cookie: the copy kept by another request is this page's too.
      event.waitUntil(caches.open(CACHE).then(function (cache) {
        return cache.delete(request, {ignoreVary: true});
      }));
    } else if (response.ok && code && request.mode === "navigate") {
      event.waitUntil(forgetOthers(code));
    } else if (response.ok && askedFor) {
      event.waitUntil(forgetCode(askedFor));
    }
    event.waitUntil(keep(request, response, asked));
    return response;
  }, function (error) {
    return keptCopy(request).then(function (kept) {
      if (kept) { return marked(kept); }
      // A page never opened here: say so, rather than the browser's error (a page's own
      // requests still fail, as the outbox expects).
      if (request.mode !== "navigate") { throw error; }
      return caches.match(OFFLINE).then(function (notice) {
        if (notice) { return notice; }
        throw error;
      });
    });
  });
}

function file(event) {
  var request = event.request;
  return caches.match(request).then(function (kept) {
    var asked = forgotten;
    return kept || fetch(request).then(function (response) {
      event.waitUntil(keep(request, response, asked));
      return response;
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") { return; }
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  if (url.pathname.indexOf(STATIC) === 0) { event.respondWith(file(event)); return; }
  if (url.pathname.indexOf(SCOPE) === 0 && !NEVER.test(url.pathname)) {
    event.respondWith(page(event));
  }
});

// A page asks to keep the pages it links to (the table's boards), fetched now while online.
self.addEventListener("message", function (event) {
  // Logging out (logout.js): nothing of any table's code may open offline any more.
  if (event.data && event.data.forget) {
    event.waitUntil(forgetCodes(function (code) { return code !== ""; }));
    return;
  }
  // The notice too (first, within the bound), so that it follows the language pages are read in.
  var urls = [OFFLINE].concat((event.data && event.data.keep) || []);
  urls = urls.filter(function (u, i) {
    return typeof u === "string" && u.indexOf(SCOPE) === 0 && !NEVER.test(u.split("?")[0]) &&
      urls.indexOf(u) === i;
  }).slice(0, 40);
  var lang = event.data && typeof event.data.lang === "string" ? event.data.lang : "";
  event.waitUntil(Promise.all(urls.map(fetchAndKeep)).then(function () {
    return lang ? refreshOtherLanguages(lang, urls) : null;
  }));
});

function fetchAndKeep(u) {
  var request = new Request(u);
  var asked = forgotten;
  return fetch(u, {credentials: "same-origin"}).then(function (response) {
    if (response.status === 401 || response.status === 403 || response.status === 404) {
      return caches.open(CACHE).then(function (cache) {
        return cache.delete(request, {ignoreVary: true});
      });
    }
    return keep(request, response, asked);
  }).catch(function () { return null; });
}

// The language was changed: the pages kept in another one (a pair's evening pages, kept once
// opened) are fetched again, so that the phone offline speaks the language chosen.
function refreshOtherLanguages(lang, done) {
  return caches.open(CACHE).then(function (cache) {
    return cache.keys().then(function (requests) {
      return Promise.all(requests.map(function (request) {
        var url = new URL(request.url);
        var u = url.pathname + url.search;
        if (done.indexOf(u) >= 0 || u.indexOf(SCOPE) !== 0) { return null; }
        return cache.match(request, {ignoreVary: true}).then(function (kept) {
          var said = kept && kept.headers.get("Content-Language");
          var html = kept && (kept.headers.get("Content-Type") || "").indexOf("text/html") === 0;
          return html && said && said !== lang ? fetchAndKeep(u) : null;
        });
      }));
    });
  });
}
