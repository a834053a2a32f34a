// The statement builders of the features outside queries/ (the events list and catalogs, recordings,
// behavior reports, labeled events, path cleaning, requests about a person, exports, what ingestion stores besides events, the admin
// figures) and the jobs that change stored events, one set per engine kind. A feature asks
// `statementsOf(services.events)` for its builders and runs what they build on the same engine;
// the rows it reads back are turned into answers by the feature, whatever the engine. A second
// engine writes a module of the same shape per feature and adds it here (tsc names what is missing).

import type { ByEngine, EngineKind } from './engine.js';
import * as duckdbEvents from './duckdb/eventsSql.js';
import * as clickhouseEvents from './clickhouse/eventsSql.js';
import * as clickhouseDoctor from './clickhouse/doctorSql.js';
import * as clickhouseReplay from './clickhouse/replaySql.js';
import * as duckdbReplay from './duckdb/replaySql.js';
import * as duckdbLabeled from './duckdb/labeledSql.js';
import * as duckdbBehavior from './duckdb/behaviorSql.js';
import * as clickhouseBehavior from './clickhouse/behaviorSql.js';
import * as duckdbPathCleaning from './duckdb/pathCleaningSql.js';
import * as duckdbAdmin from './duckdb/adminSql.js';
import * as duckdbIngest from './duckdb/ingestSql.js';
import * as clickhouseIngest from './clickhouse/ingestSql.js';
import * as clickhousePathCleaning from './clickhouse/pathCleaningSql.js';
import * as clickhouseLabeled from './clickhouse/labeledSql.js';
import * as clickhousePersons from './clickhouse/personsSql.js';
import * as clickhouseAdmin from './clickhouse/adminSql.js';
import { deletePerson as clickhouseDeletePerson } from './clickhouse/personsDelete.js';
import { purgeEvents } from './duckdb/deleteEvents.js';
import { purgeEvents as clickhousePurgeEvents } from './clickhouse/deleteEvents.js';
import * as duckdbPersons from './duckdb/personsSql.js';
import * as duckdbExport from './duckdb/exportSql.js';
import * as clickhouseExport from './clickhouse/exportSql.js';
import { deletePerson } from './duckdb/personsDelete.js';

type Builders<M, K extends keyof M> = Pick<M, K>;

export interface FeatureStatements {
  events: Builders<typeof duckdbEvents, 'listEventsSql' | 'doctorAcceptedSql' | 'distinctIdsOfActorSql' | 'actorsOfSql' | 'eventCatalogSql' | 'propertyKindsSql'>;
  replay: typeof duckdbReplay;
  behavior: typeof duckdbBehavior;
  admin: typeof duckdbAdmin;
  ingest: typeof duckdbIngest;
  persons: typeof duckdbPersons;
  transfer: Builders<typeof duckdbExport, 'exportPlan'>;
  pathCleaning: Builders<typeof duckdbPathCleaning, 'ruleCheckSql' | 'trimmedPathSql' | 'ruleStepSql'>;
  labeled: Builders<typeof duckdbLabeled, 'countMatchingSql' | 'labeledCountsSql'>;
  /**
   * The jobs that change stored events, each one transaction on the connection of a writer turn
   * (`EventEngine.useWriter`) taken while no rollup fold runs.
   */
  jobs: { syncDerived: typeof duckdbLabeled.syncDerived; purgeEvents: typeof purgeEvents; deletePerson: typeof deletePerson };
}

const STATEMENTS: ByEngine<FeatureStatements> = {
  duckdb: {
    events: duckdbEvents,
    replay: duckdbReplay,
    behavior: duckdbBehavior,
    admin: duckdbAdmin,
    ingest: duckdbIngest,
    persons: duckdbPersons,
    transfer: duckdbExport,
    pathCleaning: duckdbPathCleaning,
    labeled: duckdbLabeled,
    jobs: { syncDerived: duckdbLabeled.syncDerived, purgeEvents, deletePerson },
  },
  clickhouse: {
    events: {
      listEventsSql: clickhouseEvents.listEventsSql,
      doctorAcceptedSql: clickhouseDoctor.doctorAcceptedSql,
      distinctIdsOfActorSql: clickhouseEvents.distinctIdsOfActorSql,
      actorsOfSql: clickhouseEvents.actorsOfSql,
      eventCatalogSql: clickhouseDoctor.eventCatalogSql,
      propertyKindsSql: clickhouseDoctor.propertyKindsSql,
    },
    replay: clickhouseReplay,
    behavior: clickhouseBehavior,
    admin: clickhouseAdmin,
    ingest: clickhouseIngest,
    persons: clickhousePersons,
    transfer: clickhouseExport,
    pathCleaning: clickhousePathCleaning,
    labeled: { countMatchingSql: clickhouseLabeled.countMatchingSql, labeledCountsSql: clickhouseLabeled.labeledCountsSql },
    jobs: { syncDerived: clickhouseLabeled.syncDerived, purgeEvents: clickhousePurgeEvents, deletePerson: clickhouseDeletePerson },
  },
};

/** The builders of `engine`'s kind. */
export function statementsOf(engine: { kind: EngineKind }): FeatureStatements {
  return STATEMENTS[engine.kind];
}
