// Placeholder: replaced by HTTPSource.
