//! Per-test LLM attempt budgets: generation and healing attempts per step, owned by the test's
//! runtime and never shared between tests.
//!
//! Main type: [`Budgets`].

use std::collections::HashMap;

use crate::cache::StepKey;
use crate::config::BudgetSettings;

/// Which pool an attempt comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Pool {
    Generation,
    Healing,
}

impl Pool {
    pub fn name(self) -> &'static str {
        match self {
            Pool::Generation => "generation",
            Pool::Healing => "healing",
        }
    }
}

/// Attempts used per step and pool, against the configured limits.
#[derive(Debug)]
pub(crate) struct Budgets {
    limits: BudgetSettings,
    used: HashMap<(StepKey, Pool), u32>,
}

impl Budgets {
    pub(crate) fn new(limits: BudgetSettings) -> Self {
        Self {
            limits,
            used: HashMap::new(),
        }
    }

    pub(crate) fn limit(&self, pool: Pool) -> u32 {
        match pool {
            Pool::Generation => self.limits.generation,
            Pool::Healing => self.limits.healing,
        }
    }

    /// Takes one attempt from `pool` for `key`: its number (from 1), or `None` when spent.
    pub(crate) fn try_take(&mut self, key: &StepKey, pool: Pool) -> Option<u32> {
        let limit = self.limit(pool);
        let used = self.used.entry((key.clone(), pool)).or_insert(0);
        if *used >= limit {
            return None;
        }
        *used += 1;
        Some(*used)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(step: &str) -> StepKey {
        StepKey {
            scenario: "s.steps".into(),
            test: Some("t".into()),
            step: step.into(),
            occurrence: 1,
        }
    }

    #[test]
    fn each_step_and_pool_has_its_own_count() {
        let mut budgets = Budgets::new(BudgetSettings {
            generation: 2,
            healing: 1,
        });
        assert_eq!(budgets.try_take(&key("a"), Pool::Generation), Some(1));
        assert_eq!(budgets.try_take(&key("a"), Pool::Generation), Some(2));
        assert_eq!(budgets.try_take(&key("a"), Pool::Generation), None);
        assert_eq!(budgets.try_take(&key("b"), Pool::Generation), Some(1));
        assert_eq!(budgets.try_take(&key("a"), Pool::Healing), Some(1));
        assert_eq!(budgets.try_take(&key("a"), Pool::Healing), None);
    }

    #[test]
    fn a_zero_budget_refuses_at_once() {
        let mut budgets = Budgets::new(BudgetSettings {
            generation: 0,
            healing: 0,
        });
        assert_eq!(budgets.try_take(&key("a"), Pool::Generation), None);
    }
}
