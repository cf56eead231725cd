// Placeholder: the demo's content is being written.
