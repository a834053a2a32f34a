// The floors of the server (docs/architecture.md, "Floors"), checked on every import that loads a
// module when the program runs. Type-only imports are erased by the compiler and left out: they are
// how what every domain receives (http/services.ts) names the running parts it holds, which the
// domains above build. Lowest first; an import may point down a floor or sideways within one, never up:
//
//   ground        server/ground/ (errors, logging, secrets and key derivation, configuration, the
//                 clock) and license/ (the license format library)
//   store, engine server/store/, server/engine/
//   http, access  server/http/ (with services.ts, what every domain receives), server/access/
//   domains       every other folder of server/ (auth/, accounts/, …, queries/<insight>/)
//   top           server/*.ts (app.ts, workers.ts, start.ts, openServices.ts), server/admin/
//
// Above the server: bin/ and installer/. Beside it: console/ and sdk/. Tests may import anything.
// Run: npm run lint (Biome, then npx depcruise --config .dependency-cruiser.cjs server bin installer license console/src sdk)

const GROUND = '^server/ground/';
const STORE_ENGINE = '^server/(store|engine)/';
const HTTP_ACCESS = '^server/(http|access)/';
const DOMAINS = '^server/(?!(ground|store|engine|http|access|admin)/)[^/]+/';
const TOP = '^server/[^/]+[.]ts$|^server/admin/';

// Two folders of the server that import each other, directly or through others, fail. A folder
// counts with its subfolders (auth/ with auth/signup/, queries/ with queries/funnel/); the top
// floor (server/*.ts) is left to the floor rules.
const FOLDER_CYCLE = {
  name: 'folder-cycle',
  comment: 'Two folders of the server that import each other, directly or through others.',
  severity: 'error',
  scope: 'folder',
  from: { path: '^server/([^/]+)' },
  to: { circular: true, pathNot: '^server/$1(/|$)|^server$' },
};

module.exports = {
  forbidden: [
    {
      name: 'ground-imports-up',
      comment: 'server/ground/ is the lowest floor: it imports nothing else of the server.',
      severity: 'error',
      from: { path: GROUND },
      to: { path: '^server/', pathNot: GROUND },
    },
    {
      name: 'store-engine-imports-up',
      comment: 'store/ and engine/ import only each other and the ground floor.',
      severity: 'error',
      from: { path: STORE_ENGINE },
      to: { path: `${HTTP_ACCESS}|${DOMAINS}|${TOP}` },
    },
    {
      name: 'http-access-imports-up',
      comment: 'http/ and access/ never import a domain folder or the top floor.',
      severity: 'error',
      from: { path: HTTP_ACCESS },
      to: { path: `${DOMAINS}|${TOP}` },
    },
    {
      name: 'domain-imports-top',
      comment: 'A domain folder or an insight never imports what starts and stops everything.',
      severity: 'error',
      from: { path: DOMAINS },
      to: { path: TOP },
    },
    {
      name: 'server-imports-outside',
      comment: 'The server never imports the installer, the CLI, the tests, the console or the sdk.',
      severity: 'error',
      from: { path: '^server/' },
      to: { path: '^(installer|bin|test|console|sdk)/' },
    },
    {
      name: 'license-library-imports-outside',
      comment: 'license/ is a library: the server uses it, it uses nothing of the server.',
      severity: 'error',
      from: { path: '^license/' },
      to: { path: '^(server|installer|bin|test|console|sdk)/' },
    },
    {
      name: 'console-imports-outside',
      comment: 'The console is its own program. It shares one pure module with the server, the rolling date ranges (and the date arithmetic under it), so that both read "last 7 days" alike.',
      severity: 'error',
      from: { path: '^console/' },
      to: {
        path: '^(server|installer|bin|license|test|sdk)/',
        pathNot: '^server/engine/(rollingRange|dates)[.]ts$',
      },
    },
    {
      name: 'sdk-imports-outside',
      comment: 'The sdk ships to browsers and other programs: it imports nothing of this repository outside sdk/.',
      severity: 'error',
      from: { path: '^sdk/' },
      to: { path: '^(server|installer|bin|license|test|console)/' },
    },
    FOLDER_CYCLE,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/|^sdk/browser/released/' },
    tsPreCompilationDeps: false,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs'] },
  },
};
