-- Traits sent with identify, merged per user id (later keys win, a null value removes a key).
CREATE TABLE actor_traits (
  project_id INTEGER NOT NULL,
  user_id VARCHAR NOT NULL,
  traits JSON NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (project_id, user_id)
);
