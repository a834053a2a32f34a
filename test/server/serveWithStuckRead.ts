// Runs the server in its own process as `ppctl serve` does (closeOnSignals included), with one read
// running that DuckDB cannot interrupt (one edit-distance call over two 80,000-character strings,
// about a minute of work that checks for no interrupt): what the stop tests signal. Argument: the
// data folder.

import { loadConfig } from '../../server/ground/config.js';
import { startServer } from '../../server/start.js';

const STUCK_READ = "SELECT levenshtein(repeat('ab', 40000), repeat('ba', 40000)) AS d";

const config = loadConfig({ env: {}, flags: { port: 0, host: '127.0.0.1', data_dir: process.argv[2]!, log_level: 'info' } });
const running = await startServer(config, { stopOnSignals: true });
running.services.events.read(STUCK_READ).catch(() => undefined);
running.services.log.info('stuck read started');
