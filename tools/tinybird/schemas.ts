import { z } from 'zod';

/** One column of a Data Source as `/v0/datasources` describes it; unknown fields are kept. */
export const columnSchema = z
  .looseObject({
    name: z.string(),
    type: z.string().describe('ClickHouse type, e.g. LowCardinality(String), Nullable(Float64)'),
    nullable: z.boolean().optional(),
    default_value: z.string().nullable().optional(),
    jsonpath: z.string().nullable().optional().describe('Where the value sits in an ingested event'),
  })
  .describe('A column: its name and ClickHouse type');

/** A Data Source as `/v0/datasources` and `/v0/datasources/<name>` describe it. */
export const datasourceSchema = z
  .looseObject({
    id: z.string().optional(),
    name: z.string(),
    description: z.string().nullable().optional(),
    type: z.string().optional(),
    created_at: z.string().optional(),
    updated_at: z.string().optional(),
    engine: z
      .looseObject({
        engine: z.string().optional().describe('Table engine, e.g. MergeTree'),
        engine_sorting_key: z.string().optional(),
        engine_partition_key: z.string().optional(),
      })
      .optional(),
    columns: z.array(columnSchema).default([]),
    statistics: z
      .looseObject({ bytes: z.number().nullable().optional(), row_count: z.number().nullable().optional() })
      .nullable()
      .optional()
      .describe('Stored size and row count'),
  })
  .describe('A Data Source: name, engine, columns and row count');

/** A parameter of a pipe node, as the Pipes API lists it. */
export const pipeParamSchema = z
  .looseObject({
    name: z.string(),
    type: z.string().optional().describe('Template type, e.g. String, Int32, DateTime'),
    default: z.union([z.string(), z.number(), z.boolean(), z.null()]).optional(),
    required: z.boolean().optional(),
    description: z.string().nullable().optional(),
  })
  .describe('A dynamic parameter of the endpoint');

export const pipeNodeSchema = z
  .looseObject({
    id: z.string().optional(),
    name: z.string(),
    sql: z.string().optional(),
    description: z.string().nullable().optional(),
    params: z.array(pipeParamSchema).optional(),
  })
  .describe('A node of the pipe: its name and SQL');

/** A pipe as `/v0/pipes` and `/v0/pipes/<name>` describe it. */
export const pipeSchema = z
  .looseObject({
    id: z.string().optional(),
    name: z.string(),
    description: z.string().nullable().optional(),
    type: z.string().optional().describe('endpoint, materialized, copy, … or default'),
    endpoint: z.string().nullable().optional().describe('Id of the node published as the endpoint, or null'),
    created_at: z.string().optional(),
    updated_at: z.string().optional(),
    nodes: z.array(pipeNodeSchema).optional(),
  })
  .describe('A pipe: name, type and nodes');
