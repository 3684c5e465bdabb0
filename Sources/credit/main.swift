import CreditTool
import Platform

exit(await CreditTool.runAsProcess())
