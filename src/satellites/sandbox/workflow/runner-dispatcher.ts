import { Agent, type Dispatcher } from 'undici';

/**
 * The dispatcher a running workflow's blocks send through: an undici Agent that sends only to
 * URLs `refuse` allows (the sandbox's own service ports and `tinybird.importFrom`, the rule an
 * import follows), so a workflow put in by a tool cannot make the sandbox fetch another local
 * port, nor its admin port, and hand the answer back as the execution's output.
 */
export class RunnerDispatcher extends Agent {
  constructor(private readonly refuse: (url: string) => string | undefined) {
    super();
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const origin = String(options.origin ?? '');
    const refused = URL.canParse(options.path, origin) ? this.refuse(new URL(options.path, origin).href) : 'Invalid url';
    // Thrown: the harness reports it as the block's failed request, and nothing is sent.
    if (refused) throw new Error(`The sandbox runs workflows against its own service ports and tinybird.importFrom only; ${origin} is not one`);
    return super.dispatch(options, handler);
  }
}
