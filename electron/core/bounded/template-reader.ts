/**
 * What the bounded worker uses of the template reader. Built, it is a file of its own beside the
 * worker (`template-reader.cjs`, worker-boot.ts `TEMPLATE_READER_FILE`): yaml and re2js are most of
 * the worker's code, and a job that reads an `.apo` never compiles them.
 */
export { inspectTemplateFolder, readTemplateFolder } from '../template/index';
