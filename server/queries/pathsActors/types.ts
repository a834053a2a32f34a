// Paths actors: the request parameters, as the OpenAPI schema has checked them, and the answer's
// shape.

import type { PathsParams } from '../paths/types.js';

export interface PathsActorsParams extends PathsParams {
  /** A node of the paths graph: its step and item exactly as the paths answer gives them. */
  step: number;
  item: string;
  /** With it, the link from the node to this item one step later (step + 1). */
  next_item?: string;
  cursor?: string;
  limit: number;
}

export interface PathsActorsResponse {
  step: number;
  item: string;
  next_item: string | null;
  /** The units (actors, or sessions) through the node or link, as the graph counts them. */
  units: number;
  /** The distinct actors of those units, every page together. */
  total: number;
  /** `recorded`: the actor has recordings (the recordings list filtered by the person has some). */
  items: Array<{ actor_id: string; recorded: boolean }>;
  next_cursor: string | null;
}
