import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseWorkflow, type WorkflowDef } from './definition.js';
import type { ExecutionRecord } from './runner.js';

export interface Job {
  taskId: string;
  workspaceId: string;
  workflowId: string;
  executionId: string;
  status: 'queued' | 'processing' | 'completed' | 'failed';
  createdAt: string;
  startedAt?: string;
  completedAt?: string;
  output?: unknown;
  error?: string;
}

interface Saved {
  workflows: WorkflowDef[];
  records: ExecutionRecord[];
  jobs: Job[];
}

/** Workflows, execution records and jobs, saved to `dataDir/workflow.json` when there is one. */
export class PlatformStore {
  readonly workflows = new Map<string, WorkflowDef>();
  readonly records: ExecutionRecord[];
  readonly jobs: Map<string, Job>;
  private readonly file: string | undefined;

  constructor(definitions: readonly unknown[], dataDir: string | undefined) {
    this.file = dataDir ? join(dataDir, 'workflow.json') : undefined;
    const saved = this.file && existsSync(this.file) ? (JSON.parse(readFileSync(this.file, 'utf8')) as Saved) : undefined;
    // Saved workflows first (those registered at run time), then the given ones, which win: the files are the source.
    for (const def of [...(saved?.workflows ?? []), ...definitions]) {
      const workflow = parseWorkflow(def);
      this.workflows.set(workflow.id, workflow);
    }
    this.records = saved?.records ?? [];
    this.jobs = new Map((saved?.jobs ?? []).map((job) => [job.taskId, job]));
    // A job the last run left queued or processing will never finish: report it as failed.
    for (const job of this.jobs.values()) {
      if (job.status === 'queued' || job.status === 'processing') {
        Object.assign(job, { status: 'failed', error: 'the sandbox stopped before the job finished', completedAt: new Date().toISOString() });
      }
    }
  }

  save(): void {
    if (!this.file) return;
    writeFileSync(this.file, JSON.stringify({ workflows: [...this.workflows.values()], records: this.records, jobs: [...this.jobs.values()] }));
  }
}
