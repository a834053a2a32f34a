// The generated systemd unit: what it runs, as whom, how it restarts and stops.

import t from 'tap';
import { systemdUnit } from '../../installer/systemdUnit.js';

const input = { prefix: '/opt/pp', configFile: '/etc/pp/pp.json', dataDir: '/var/lib/pp', user: 'pp', port: 8080 };

t.test('the unit runs ppctl serve from the current release as the service user', async (t) => {
  const unit = systemdUnit(input);
  t.match(unit, /^\[Unit\]$/m);
  t.match(unit, /^ExecStart=\/opt\/pp\/current\/ppctl serve --config \/etc\/pp\/pp\.json$/m);
  t.match(unit, /^User=pp$/m);
  t.match(unit, /^Group=pp$/m);
  t.match(unit, /^WorkingDirectory=\/var\/lib\/pp$/m);
  t.match(unit, /^Restart=on-failure$/m);
  t.match(unit, /^KillSignal=SIGTERM$/m);
  t.match(unit, /^ReadWritePaths=\/var\/lib\/pp$/m);
  t.match(unit, /^WantedBy=multi-user\.target$/m);
  t.notMatch(unit, /CAP_NET_BIND_SERVICE/, 'no capability for a high port');
});

t.test('a port below 1024 gets exactly the capability to bind it', async (t) => {
  const unit = systemdUnit({ ...input, port: 443 });
  t.match(unit, /^AmbientCapabilities=CAP_NET_BIND_SERVICE$/m);
  t.match(unit, /^CapabilityBoundingSet=CAP_NET_BIND_SERVICE$/m);
  t.notMatch(systemdUnit({ ...input, port: 443, user: 'root' }), /CAP_NET_BIND_SERVICE/, 'root needs none');
});
